/**
 * A terminal for CLI tests: the `herdr` CLI runs in a PTY of the test's own,
 * and what it writes is parsed by a real @xterm/headless terminal, so a test
 * reads the screen a person would see.
 */
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import { eventually } from '../../harness/poll.js';
import { HERDR_BIN } from '../../harness/server.js';

const { Terminal } = xtermHeadless;
export type HeadlessTerminal = InstanceType<typeof Terminal>;

export class CliTerminal {
  readonly term: HeadlessTerminal;
  /** Everything the CLI wrote, raw. */
  output = '';
  readonly exited: Promise<number>;
  private readonly process: pty.IPty;

  constructor(args: string[], options: { cols?: number; rows?: number; cwd: string; env?: Record<string, string> }) {
    const cols = options.cols ?? 100;
    const rows = options.rows ?? 30;
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
    this.process = pty.spawn(process.execPath, [HERDR_BIN, ...args], {
      cols,
      rows,
      cwd: options.cwd,
      env: { ...process.env, TERM: 'xterm-256color', ...options.env },
      name: 'xterm-256color',
    });
    this.process.onData((data) => {
      this.output += data;
      this.term.write(data);
    });
    this.exited = new Promise((resolve) => this.process.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /** Types as a person would (keys, Enter as \r). */
  type(text: string): void {
    this.process.write(text);
  }

  resize(cols: number, rows: number): void {
    this.process.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  /** The screen as text, one line a row, trailing blanks trimmed. */
  async screen(): Promise<string> {
    await new Promise<void>((resolve) => this.term.write('', resolve));
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.term.rows; y++) rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return rows.join('\n');
  }

  /** Waits until the screen matches. */
  screenMatches(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    return eventually(async () => {
      const screen = await this.screen();
      return pattern.test(screen) ? screen : undefined;
    }, `the terminal to show ${pattern}`, timeoutMs);
  }

  kill(): void {
    try {
      this.process.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
