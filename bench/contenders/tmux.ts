/**
 * tmux as the peer: a server of its own (`-L`), no config file, the clean
 * environment, the same shell, 120×40 windows without a status line and the
 * same 10 000-row history. Many tmux commands go in one client invocation
 * (`;`-chained), as a script driving tmux at scale would do.
 */
import { execFile, spawn } from 'node:child_process';
import { type Interface, createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { eventually, sleep } from '../../harness/poll.js';
import { type BenchEnvironment, COLS, PROMPT, ROWS, SHELL } from '../environment.js';
import { cpuSeconds, rssBytes } from '../measure.js';
import { type CliKind, type OutputWatch, type PaneHost, type PerPane, type QueryKind, type ViewedOutput, perPane } from './host.js';

const run = promisify(execFile);
/** Commands per client invocation (keeps argv well under the kernel's limit). */
const BATCH = 100;
/** Bytes of arguments per client invocation: the client sends its command in one message of at most 16 KB ("failed to send command" past it). */
const BATCH_BYTES = 12 * 1024;
/** How often `untilLine` looks at the panes not done yet. */
const POLL_MS = 50;
export const HISTORY_ROWS = 10_000;
/** What `pane.get` tells about a pane, as tmux format fields. */
const PANE_FIELDS = '#{pane_id} #{pane_pid} #{pane_current_command} #{pane_current_path} #{pane_width}x#{pane_height} #{pane_dead}';

/** The bytes of a control-mode `%output %<pane> <bytes>` notice (tmux escapes control characters and backslash as \\ooo); undefined for other notices. */
function outputBytes(notice: string): string | undefined {
  if (!notice.startsWith('%output ')) return undefined;
  return notice.slice(notice.indexOf(' ', 8) + 1).replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export async function tmuxVersion(): Promise<string | undefined> {
  return run('tmux', ['-V']).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
}

/** The last `count` rows of a screen once its blank rows at the bottom are dropped. */
function lastNonBlank(screen: readonly string[], count: number): string[] {
  let end = screen.length;
  while (end > 0 && (screen[end - 1] ?? '').trim() === '') end--;
  return screen.slice(Math.max(0, end - count), end);
}

export class TmuxHost implements PaneHost {
  readonly name = 'tmux' as const;
  readonly label: string;
  private readonly socketName = `herdr-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private serverPid = 0;
  private watches = 0;

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

  /** `commands` (each an argv) chained with `;`, at most BATCH (and BATCH_BYTES) to a client invocation; the outputs joined. */
  async chained(commands: string[][]): Promise<string> {
    let out = '';
    let batch: string[] = [];
    let count = 0;
    let bytes = 0;
    for (const command of commands) {
      const size = command.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 2);
      if (count > 0 && (count === BATCH || bytes + size > BATCH_BYTES)) {
        out += await this.tmux(...batch);
        batch = [];
        count = 0;
        bytes = 0;
      }
      batch.push(...(count === 0 ? command : [';', ...command]));
      count++;
      bytes += size;
    }
    if (count > 0) out += await this.tmux(...batch);
    return out;
  }

  async createPanes(count: number, command?: PerPane): Promise<string[]> {
    const panes = await this.newWindows(count, command);
    if (!command) await this.untilPrompt(panes);
    return panes;
  }

  async createBurst(count: number): Promise<{ panes: string[]; seconds: number }> {
    const start = performance.now();
    const panes = await this.newWindows(count);
    const seconds = (performance.now() - start) / 1000;
    await this.untilPrompt(panes);
    return { panes, seconds };
  }

  private async newWindows(count: number, command?: PerPane): Promise<string[]> {
    const commandOf = command === undefined ? undefined : perPane(command);
    const create = (index: number) => ['new-window', '-d', '-t', 'bench', '-P', '-F', '#{pane_id}', ...(commandOf ? [commandOf(index)] : [])];
    const out = await this.chained(Array.from({ length: count }, (_, index) => create(index)));
    return out.trim().split('\n').filter(Boolean);
  }

  private untilPrompt(panes: readonly string[]): Promise<void> {
    return this.untilEvery(panes, (rows) => rows.some((row) => row.startsWith(PROMPT.trim())), 60_000, 'a prompt');
  }

  async typeLine(panes: readonly string[], line: PerPane): Promise<void> {
    const lineOf = perPane(line);
    await this.chained(panes.map((pane, i) => ['send-keys', '-t', pane, '-l', lineOf(i), ';', 'send-keys', '-t', pane, 'Enter']));
  }

  /** The last `rows` non-blank screen rows of each pane, by pane (one client invocation per BATCH panes). */
  async lastRows(panes: readonly string[], rows = 10): Promise<Map<string, string[]>> {
    const mark = '@@pane ';
    const out = await this.chained(
      panes.flatMap((pane) => [
        ['display-message', '-p', '-t', pane, `${mark}#{pane_id}`], // (a literal % would go through strftime)
        ['capture-pane', '-p', '-t', pane],
      ]),
    );
    const byPane = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const row of out.split('\n')) {
      if (row.startsWith(mark)) byPane.set(row.slice(mark.length), (current = []));
      else current?.push(row);
    }
    for (const [pane, screen] of byPane) byPane.set(pane, lastNonBlank(screen, rows));
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

  /** Types, then polls the pane back to back (no pause) until the token shows: tmux's best round trip. */
  async echoRoundTrip(pane: string, token: string, timeoutMs: number): Promise<void> {
    await this.tmux('send-keys', '-t', pane, '-l', `echo ${token}`, ';', 'send-keys', '-t', pane, 'Enter');
    await eventually(async () => {
      const out = await this.tmux('capture-pane', '-p', '-t', pane);
      return lastNonBlank(out.split('\n'), 10).includes(token);
    }, `"${token}" in ${pane}`, timeoutMs, 0);
  }

  async query(kind: QueryKind, pane: string): Promise<void> {
    // Every tmux request is a client invocation: the same as its command-line use.
    if (kind === 'liveness') await this.tmux('display-message', '-p', '');
    else await this.runCli(kind, pane);
  }

  /** The pane runs in a session of its own, so the control client hears only it. */
  async runCli(kind: CliKind, pane: string): Promise<void> {
    if (kind === 'version') await this.tmux('-V');
    else if (kind === 'list') await this.tmux('list-sessions');
    else if (kind === 'pane status') await this.tmux('display-message', '-p', '-t', pane, PANE_FIELDS);
    else if (kind === 'read 80 lines') await this.tmux('capture-pane', '-p', '-t', pane, '-S', String(ROWS - 80), '-E', String(ROWS - 1));
    else await this.tmux('send-keys', '-t', pane, 'true', 'Enter');
  }

  async reportAgentState(pane: string, state: 'working' | 'idle'): Promise<void> {
    await this.tmux('set-option', '-p', '-t', pane, '@agent_state', state);
  }

  /** A new session running `command`, a control-mode client attached to it, and its notices line by line. */
  private async controlSession(prefix: string, command: string): Promise<{ session: string; notices: Interface; end(): Promise<void> }> {
    const session = `${prefix}-${++this.watches}`;
    await this.tmux('new-session', '-d', '-s', session, '-x', String(COLS), '-y', String(ROWS), command);
    const client = spawn('tmux', ['-L', this.socketName, '-f', '/dev/null', '-C', 'attach', '-t', session], {
      env: this.environment.env,
      cwd: this.environment.dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    // Byte for byte: %output carries the pane's bytes, control characters escaped.
    client.stdout.setEncoding('latin1');
    return {
      session,
      notices: createInterface({ input: client.stdout }),
      end: async () => {
        client.stdin.end();
        client.kill();
        await this.tmux('kill-session', '-t', session).catch(() => undefined);
      },
    };
  }

  async watchOutput(command: string, pattern: string, onLine: (line: string) => void): Promise<OutputWatch> {
    const { notices, end } = await this.controlSession('watch', command);
    const regex = new RegExp(pattern);
    let partial = '';
    notices.on('line', (notice) => {
      const bytes = outputBytes(notice);
      if (bytes === undefined) return;
      const lines = (partial + bytes).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const text = line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''); // the screen clears between lines
        if (regex.test(text)) onLine(text);
      }
    });
    return { stop: end };
  }

  async viewOutput(command: string, mark: string, timeoutMs: number): Promise<ViewedOutput> {
    const { session, notices, end } = await this.controlSession('view', command);
    try {
      // Attached once tmux has said anything to the client.
      await new Promise<void>((resolve) => notices.once('line', () => resolve()));
      let bytes = 0;
      let tail = '';
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`tmux: no ${mark} after ${timeoutMs} ms`)), timeoutMs);
        notices.on('line', (notice) => {
          const chunk = outputBytes(notice);
          if (chunk === undefined) return;
          bytes += chunk.length;
          const text = tail + chunk;
          if (text.includes(mark)) {
            clearTimeout(timer);
            resolve(bytes);
          }
          tail = text.slice(-mark.length);
        });
      });
      const start = performance.now();
      await this.tmux('send-keys', '-t', session, 'Enter');
      const received = await seen;
      return { bytes: received, seconds: (performance.now() - start) / 1000 };
    } finally {
      await end();
    }
  }

  async listPanes(): Promise<number> {
    return (await this.tmux('list-panes', '-a', '-F', PANE_FIELDS)).trim().split('\n').length;
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
