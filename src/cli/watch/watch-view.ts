/**
 * `herdr watch`: the fleet on the whole terminal, live. One subscription
 * drives it (states, agents, exit codes as their events arrive); after events
 * the lists are loaded again, at most once a second, for what events do not
 * carry (directories, messages, renumbered ids). Frames are drawn at most
 * every 50 ms, and only the rows that fit, so 500 panes cost what 40 do.
 * Enter attaches to the selected pane; detaching comes back here.
 */
import { LIFECYCLE_KINDS, type SubscriptionSpec } from '../../protocol/methods.js';
import { DEFAULT_DETACH_KEY, attach, type AttachEnd } from '../attach/attach.js';
import { HerdrClient, type Subscription } from '../client.js';
import { resolveKey } from '../../protocol/keys.js';
import type { Dialer } from '../transport.js';
import { Fleet, type FleetRow } from './fleet.js';
import { COLUMNS, cells, line, widths } from './table.js';

const FRAME_MS = 50;
const RELOAD_MS = 1000;
/** The FOR column counts up even when nothing happens. */
const CLOCK_MS = 1000;

const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l';
const LEAVE_SCREEN = '\x1b[0m\x1b[?25h\x1b[?1049l';

export const WATCH_SUBSCRIPTIONS: SubscriptionSpec[] = [
  ...LIFECYCLE_KINDS.map((type) => ({ type })),
  { type: 'pane.agent_state_changed' },
  { type: 'pane.command_finished' },
];

type Key = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'enter' | 'quit';
const KEYS: Array<[string, Key]> = [
  ['\x1b[A', 'up'], ['\x1bOA', 'up'], ['k', 'up'],
  ['\x1b[B', 'down'], ['\x1bOB', 'down'], ['j', 'down'],
  ['\x1b[5~', 'pageUp'], ['\x1b[6~', 'pageDown'],
  ['\x1b[H', 'home'], ['\x1bOH', 'home'], ['\x1b[1~', 'home'], ['g', 'home'],
  ['\x1b[F', 'end'], ['\x1bOF', 'end'], ['\x1b[4~', 'end'], ['G', 'end'],
  ['\r', 'enter'], ['\n', 'enter'],
  ['q', 'quit'], ['\x03', 'quit'], ['\x1b', 'quit'],
];

/** The keys in one read from the terminal (a lone ESC is Esc; an unknown sequence is skipped whole). */
export function parseKeys(input: string): Key[] {
  const keys: Key[] = [];
  let rest = input;
  while (rest.length > 0) {
    const match = KEYS.filter(([bytes]) => rest.startsWith(bytes)).sort((a, b) => b[0].length - a[0].length)[0];
    if (match && !(match[0] === '\x1b' && rest.length > 1)) {
      keys.push(match[1]);
      rest = rest.slice(match[0].length);
    } else {
      const sequence = /^\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/.exec(rest);
      rest = rest.slice(sequence ? sequence[0].length : 1);
    }
  }
  return keys;
}

export interface WatchOptions {
  dialer: Dialer;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

export class WatchView {
  private readonly fleet = new Fleet();
  private readonly client: HerdrClient;
  private subscription: Subscription | undefined;
  private selected: string | undefined;
  private top = 0;
  private frameTimer: NodeJS.Timeout | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private lastReload = 0;
  private clock: NodeJS.Timeout | undefined;
  /** While attached, the terminal belongs to the attach. */
  private attached = false;
  private finish: ((code: number) => void) | undefined;
  private readonly home = process.env.HOME ?? '';

  constructor(private readonly options: WatchOptions) {
    this.client = new HerdrClient({ dialer: options.dialer });
  }

  /** Runs until `q`; resolves with the exit code (1 when the server went away). */
  async run(): Promise<number> {
    // Subscribed before the lists are read: nothing that happens in between is missed.
    this.subscription = await this.client.subscribe(WATCH_SUBSCRIPTIONS, { id: 'cli:watch' });
    await this.reload();
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    this.takeTerminal();
    this.clock = setInterval(() => this.drawSoon(), CLOCK_MS);
    void this.follow(this.subscription);
    const code = await done;
    this.releaseTerminal();
    clearInterval(this.clock);
    clearTimeout(this.frameTimer);
    clearTimeout(this.reloadTimer);
    this.subscription.close();
    this.client.close();
    return code;
  }

  private async follow(subscription: Subscription): Promise<void> {
    for await (const event of subscription) {
      const effect = this.fleet.apply(event, Date.now());
      if (effect.changed) this.drawSoon();
      if (effect.reload) this.reloadSoon();
    }
    this.quit(1, 'herdr: the server went away');
  }

  private async reload(): Promise<void> {
    this.lastReload = Date.now();
    const [{ workspaces }, { panes }] = await Promise.all([this.client.workspace.list(), this.client.pane.list()]);
    this.fleet.load(workspaces, panes);
    this.drawSoon();
  }

  private reloadSoon(): void {
    if (this.reloadTimer) return;
    const wait = Math.max(0, this.lastReload + RELOAD_MS - Date.now());
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      this.reload().catch(() => this.quit(1, 'herdr: the server went away'));
    }, wait);
  }

  private drawSoon(): void {
    if (this.frameTimer || this.attached) return;
    this.frameTimer = setTimeout(() => {
      this.frameTimer = undefined;
      this.draw();
    }, FRAME_MS);
  }

  private readonly onInput = (chunk: Buffer): void => {
    for (const key of parseKeys(chunk.toString('latin1'))) this.press(key);
  };

  private readonly onResize = (): void => this.drawSoon();

  private takeTerminal(): void {
    const { input, output } = this.options;
    output.write(ENTER_SCREEN);
    if (input.isTTY) input.setRawMode(true);
    input.on('data', this.onInput);
    input.resume();
    output.on('resize', this.onResize);
    this.draw();
  }

  private releaseTerminal(): void {
    const { input, output } = this.options;
    input.off('data', this.onInput);
    output.off('resize', this.onResize);
    if (input.isTTY) input.setRawMode(false);
    input.pause();
    output.write(LEAVE_SCREEN);
  }

  private quit(code: number, message?: string): void {
    if (message) process.stderr.write(`${message}\n`);
    this.finish?.(code);
  }

  private press(key: Key): void {
    const rows = this.fleet.rows();
    const index = Math.max(0, rows.findIndex((row) => row.stableId === this.selected));
    const page = Math.max(1, this.bodyRows());
    const move = (to: number) => {
      this.selected = rows[Math.max(0, Math.min(rows.length - 1, to))]?.stableId;
      this.draw();
    };
    switch (key) {
      case 'up': return move(index - 1);
      case 'down': return move(index + 1);
      case 'pageUp': return move(index - page);
      case 'pageDown': return move(index + page);
      case 'home': return move(0);
      case 'end': return move(rows.length - 1);
      case 'enter': return void this.attachTo(rows[index]);
      case 'quit': return this.quit(0);
    }
  }

  private async attachTo(row: FleetRow | undefined): Promise<void> {
    if (!row || this.attached) return;
    this.attached = true;
    this.releaseTerminal();
    let end: AttachEnd | undefined;
    try {
      end = await attach({
        dialer: this.options.dialer,
        paneId: row.stableId,
        readOnly: false,
        detachBytes: resolveKey(DEFAULT_DETACH_KEY)?.normal ?? '\x1c',
        resize: false,
        input: this.options.input,
        output: this.options.output,
      });
    } catch {
      // The pane went away between the frame and the key: back to the view, which will show it gone.
    }
    this.attached = false;
    if (end?.reason === 'exited') this.reloadSoon();
    this.takeTerminal();
  }

  private bodyRows(): number {
    return (this.options.output.rows ?? 24) - 3;
  }

  private draw(): void {
    if (this.attached) return;
    const { output } = this.options;
    const cols = output.columns ?? 80;
    const now = Date.now();
    const rows = this.fleet.rows();
    let index = rows.findIndex((row) => row.stableId === this.selected);
    if (index === -1) {
      index = 0;
      this.selected = rows[0]?.stableId;
    }
    const body = Math.max(1, this.bodyRows());
    if (index < this.top) this.top = index;
    if (index >= this.top + body) this.top = index - body + 1;
    this.top = Math.max(0, Math.min(this.top, Math.max(0, rows.length - body)));
    const visible = rows.slice(this.top, this.top + body);
    const table = visible.map((row) => cells(row, now, this.home));
    const columnWidths = widths(table, cols);
    const counts = this.fleet.counts();
    const title = `herdr watch · ${rows.length} panes in ${this.fleet.workspaceCount} workspaces · ` +
      `${counts.blocked} blocked · ${counts.working} working · ${counts.idle} idle · ${counts.unknown} unknown`;
    const lines = [
      `\x1b[1m${clip(title, cols)}\x1b[0m`,
      `\x1b[2m${line([...COLUMNS], columnWidths, false)}\x1b[0m`,
      ...table.map((cellsOfRow, i) => {
        const text = line(cellsOfRow, columnWidths, true);
        return visible[i]?.stableId === this.selected ? `\x1b[7m${text.replaceAll('\x1b[0m', '\x1b[0;7m')}\x1b[0m` : text;
      }),
    ];
    while (lines.length < body + 2) lines.push('');
    const help = rows.length === 0 ? 'no panes yet · q quit' : '↑↓ select · Enter attach (Ctrl-\\ detaches) · q quit';
    lines.push(`\x1b[2m${clip(help, cols)}\x1b[0m`);
    output.write(`\x1b[H${lines.map((text) => `${text}\x1b[K`).join('\r\n')}\x1b[J`);
  }
}

function clip(text: string, cols: number): string {
  const chars = [...text];
  return chars.length <= cols ? text : chars.slice(0, cols).join('');
}
