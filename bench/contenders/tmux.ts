/**
 * tmux as the peer: a server of its own (`-L`), no config file, the clean
 * environment, the same shell, 120×40 windows without a status line and the
 * same 10 000-row history. Many tmux commands go in one client invocation
 * (`;`-chained), as a script driving tmux at scale would do.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually, sleep } from '../../harness/poll.js';
import { type BenchEnvironment, COLS, PROMPT, ROWS, SHELL } from '../environment.js';
import { cpuSeconds, rssBytes } from '../measure.js';
import type { PaneHost } from './host.js';

const run = promisify(execFile);
/** Commands per client invocation (keeps argv well under the kernel's limit). */
const BATCH = 100;
/** How often `untilLine` looks at the panes not done yet. */
const POLL_MS = 50;
export const HISTORY_ROWS = 10_000;

export async function tmuxVersion(): Promise<string | undefined> {
  return run('tmux', ['-V']).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
}

export class TmuxHost implements PaneHost {
  readonly name = 'tmux' as const;
  readonly label: string;
  private readonly socketName = `herdr-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private serverPid = 0;

  private constructor(
    private readonly environment: BenchEnvironment,
    version: string,
  ) {
    this.label = version;
  }

  static async start(environment: BenchEnvironment): Promise<TmuxHost> {
    const version = await tmuxVersion();
    if (!version) throw new Error('tmux is not installed (apt-get install tmux)');
    const host = new TmuxHost(environment, version);
    await host.tmux(
      'start-server', ';',
      'set', '-g', 'history-limit', String(HISTORY_ROWS), ';',
      'set', '-g', 'default-shell', SHELL, ';',
      // Not a login shell: /etc/profile would reset PATH and PS1 (our panes are not login shells either).
      'set', '-g', 'default-command', `exec ${SHELL}`, ';',
      'set', '-g', 'default-size', `${COLS}x${ROWS}`, ';',
      'set', '-g', 'status', 'off', ';',
      'new-session', '-d', '-s', 'bench', '-x', String(COLS), '-y', String(ROWS),
    );
    host.serverPid = Number((await host.tmux('display-message', '-p', '#{pid}')).trim());
    return host;
  }

  get pid(): number {
    return this.serverPid;
  }

  /** One tmux client invocation. */
  async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socketName, '-f', '/dev/null', ...args], {
      env: this.environment.env,
      cwd: this.environment.dir,
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  }

  /** `commands` (each an argv) chained with `;`, BATCH to a client invocation; the outputs joined. */
  async chained(commands: string[][]): Promise<string> {
    let out = '';
    for (let i = 0; i < commands.length; i += BATCH) {
      const args = commands.slice(i, i + BATCH).flatMap((command, j) => (j === 0 ? command : [';', ...command]));
      out += await this.tmux(...args);
    }
    return out;
  }

  async createPanes(count: number, command?: string): Promise<string[]> {
    const create = ['new-window', '-d', '-t', 'bench', '-P', '-F', '#{pane_id}', ...(command ? [command] : [])];
    const out = await this.chained(Array.from({ length: count }, () => create));
    const panes = out.trim().split('\n').filter(Boolean);
    if (!command) await this.untilEvery(panes, (rows) => rows.some((row) => row.startsWith(PROMPT.trim())), 60_000, 'a prompt', ROWS);
    return panes;
  }

  async typeLine(panes: readonly string[], line: string): Promise<void> {
    await this.chained(panes.map((pane) => ['send-keys', '-t', pane, '-l', line, ';', 'send-keys', '-t', pane, 'Enter']));
  }

  /** The last `rows` screen rows of each pane, by pane (one client invocation per BATCH panes). */
  async lastRows(panes: readonly string[], rows = 10): Promise<Map<string, string[]>> {
    const mark = '@@pane ';
    const out = await this.chained(
      panes.flatMap((pane) => [
        ['display-message', '-p', '-t', pane, `${mark}#{pane_id}`], // (a literal % would go through strftime)
        ['capture-pane', '-p', '-t', pane, '-S', String(ROWS - rows), '-E', String(ROWS - 1)],
      ]),
    );
    const byPane = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const row of out.split('\n')) {
      if (row.startsWith(mark)) byPane.set(row.slice(mark.length), (current = []));
      else current?.push(row);
    }
    return byPane;
  }

  private async untilEvery(panes: readonly string[], done: (rows: string[]) => boolean, timeoutMs: number, what: string, rowCount = 10): Promise<void> {
    let pending = [...panes];
    const deadline = Date.now() + timeoutMs;
    while (pending.length > 0) {
      const rows = await this.lastRows(pending, rowCount);
      pending = pending.filter((pane) => !done(rows.get(pane) ?? []));
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`tmux: timed out waiting for ${what} in ${pending.length} panes`);
      await sleep(POLL_MS);
    }
  }

  untilLine(panes: readonly string[], line: string, timeoutMs: number): Promise<void> {
    return this.untilEvery(panes, (rows) => rows.includes(line), timeoutMs, `"${line}"`);
  }

  /** Polls one pane back to back (no pause) until `line` shows: tmux's best round trip. */
  async untilLineNow(pane: string, line: string, timeoutMs: number): Promise<void> {
    await eventually(async () => {
      const out = await this.tmux('capture-pane', '-p', '-t', pane, '-S', String(ROWS - 10), '-E', String(ROWS - 1));
      return out.split('\n').includes(line);
    }, `"${line}" in ${pane}`, timeoutMs, 0);
  }

  async closePanes(panes: readonly string[]): Promise<void> {
    await this.chained(panes.map((pane) => ['kill-pane', '-t', pane]));
  }

  async cpuSeconds(): Promise<number> {
    return cpuSeconds(this.serverPid);
  }

  async rssBytes(): Promise<number> {
    return rssBytes(this.serverPid);
  }

  async stop(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
  }
}
