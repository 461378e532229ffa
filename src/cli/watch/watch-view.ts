/**
 * `herdr watch`: the fleet on the whole terminal, live, from one server or
 * several (docs/remote.md). Each server is a HostFeed: one subscription drives
 * it, lists are reloaded after events at most once a second, a lost server is
 * shown and retried without holding the others. Frames are drawn at most
 * every 50 ms, and only the rows that fit, so 500 panes cost what 40 do.
 * Enter attaches to the selected pane (on its own server); detaching comes
 * back here. A blocked agent's row shows its question and menu (the approval
 * inbox, docs/protocol.md §13.6); a digit answers the selected one, typed only
 * while the same question is on its screen.
 */
import { resolveKey } from '../../protocol/keys.js';
import { DEFAULT_DETACH_KEY, attach } from '../attach/attach.js';
import { HostFeed } from '../../client/fleet/host-feed.js';
import type { HostTarget } from '../../client/transport.js';
import { type FleetRow, compareRows, stateCounts } from '../../client/fleet/fleet-model.js';
import { age } from '../table.js';
import { header, line, rowCells, shownId, widths } from './table.js';
import { clip } from '../../protocol/text.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from '../full-screen.js';
import { answerLine } from '../answer-line.js';
import { NotificationWatch } from '../../client/notification-watch.js';
import type { NotificationInfo } from '../../protocol/methods/notifications.js';
import { type ShownNotification, notificationLine } from './notification-line.js';

const FRAME_MS = 50;
/** The FOR column counts up even when nothing happens. */
const CLOCK_MS = 1000;


type Digit = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type Key = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'enter' | 'quit' | Digit;
const DIGITS: Digit[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** A digit key: an option of a blocked agent's menu (never a digit inside an escape sequence, like PgUp's). */
export function isDigitKey(key: Key): key is Digit {
  return (DIGITS as string[]).includes(key);
}
const KEYS: Array<[string, Key]> = [
  ['\x1b[A', 'up'], ['\x1bOA', 'up'], ['k', 'up'],
  ['\x1b[B', 'down'], ['\x1bOB', 'down'], ['j', 'down'],
  ['\x1b[5~', 'pageUp'], ['\x1b[6~', 'pageDown'],
  ['\x1b[H', 'home'], ['\x1bOH', 'home'], ['\x1b[1~', 'home'], ['g', 'home'],
  ['\x1b[F', 'end'], ['\x1bOF', 'end'], ['\x1b[4~', 'end'], ['G', 'end'],
  ['\r', 'enter'], ['\n', 'enter'],
  ['q', 'quit'], ['\x03', 'quit'], ['\x1b', 'quit'],
  ...DIGITS.map((digit): [string, Key] => [digit, digit]),
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
  /** The servers shown together (several: a host column in the ids, docs/remote.md). */
  targets: HostTarget[];
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

export class WatchView {
  private readonly feeds: HostFeed[];
  /** The selected row: its host and stable id. */
  private selected: string | undefined;
  private top = 0;
  private frameTimer: NodeJS.Timeout | undefined;
  private clock: NodeJS.Timeout | undefined;
  /** While attached, the terminal belongs to the attach. */
  private attached = false;
  private finish: ((code: number) => void) | undefined;
  /** What the last answer did, shown in place of the help line until the next key. */
  private notice: string | undefined;
  private readonly home = process.env.HOME ?? '';
  /** notification.show's, one watch per server; the newest is the line under the table. */
  private readonly notificationWatches: NotificationWatch[];
  private notification: ShownNotification | undefined;

  constructor(private readonly options: WatchOptions) {
    this.feeds = options.targets.map((target) => new HostFeed(target.host, target.dialer, { changed: () => this.drawSoon() }));
    this.notificationWatches = options.targets.map((target) => new NotificationWatch(target.dialer, (notification) => this.notified(target.host, notification, true)));
  }

  /** A notification came (or, at the start, the newest a server kept): it becomes the line under the table. */
  private notified(host: string | undefined, notification: NotificationInfo, live: boolean): void {
    if (this.notification && this.notification.notification.at > notification.at) return;
    this.notification = { host, notification };
    // herdr plays a sound; a terminal's is its bell.
    if (live && notification.sound !== 'none' && !this.attached) this.options.output.write('\x07');
    this.drawSoon();
  }

  /** Runs until `q`; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    for (const feed of this.feeds) feed.start();
    for (const watch of this.notificationWatches) watch.start();
    // The newest each server kept, shown until a newer one comes (a server from before them has none).
    for (const feed of this.feeds) {
      feed.client.call('notification.list', {}).then(({ notifications }) => {
        const newest = notifications.at(-1);
        if (newest) this.notified(feed.host, newest, false);
      }, () => undefined);
    }
    this.takeTerminal();
    this.clock = setInterval(() => this.drawSoon(), CLOCK_MS);
    const code = await done;
    this.releaseTerminal();
    clearInterval(this.clock);
    clearTimeout(this.frameTimer);
    for (const feed of this.feeds) feed.stop();
    for (const watch of this.notificationWatches) watch.stop();
    return code;
  }

  private get qualify(): boolean {
    return this.feeds.length > 1;
  }

  private rows(): FleetRow[] {
    return this.feeds.flatMap((feed) => feed.fleet.rows()).sort(compareRows);
  }

  private keyOf(row: FleetRow): string {
    return `${row.host ?? ''}|${row.stableId}`;
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

  /** Answers the selected blocked agent's menu with `option`, against the question its row shows. */
  private async answer(option: string): Promise<void> {
    const row = this.rows().find((candidate) => this.keyOf(candidate) === this.selected);
    const feed = row && this.feeds.find((candidate) => candidate.host === row.host);
    if (!row || !feed) return;
    const id = shownId(row, this.qualify);
    this.notice = row.approval
      ? await answerLine(feed.client, { paneId: row.stableId, questionHash: row.approval.question_hash, shown: id }, option)
      : `${id}: no question with a menu to answer`;
    this.draw();
  }

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

  private press(key: Key): void {
    this.notice = undefined;
    const rows = this.rows();
    const index = Math.max(0, rows.findIndex((row) => this.keyOf(row) === this.selected));
    const page = Math.max(1, this.bodyRows());
    const move = (to: number) => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, to))];
      this.selected = row ? this.keyOf(row) : undefined;
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
      case 'quit': return this.finish?.(0);
      default: return void this.answer(key);
    }
  }

  private async attachTo(row: FleetRow | undefined): Promise<void> {
    const feed = row && this.feeds.find((candidate) => candidate.host === row.host);
    if (!row || !feed || this.attached) return;
    this.attached = true;
    this.releaseTerminal();
    try {
      await attach({
        dialer: feed.dialer,
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
    this.takeTerminal();
  }

  private bodyRows(): number {
    return (this.options.output.rows ?? 24) - 3 - this.notices().length - (this.notificationText(Date.now()) === undefined ? 0 : 1);
  }

  /** The line under the table: the newest notification while it is recent. */
  private notificationText(now: number): string | undefined {
    return this.notification && notificationLine(this.notification, now, this.qualify);
  }

  /** One line for each server that is not live. */
  private notices(): string[] {
    return this.feeds.flatMap((feed) => {
      const name = feed.host ?? 'local server';
      if (feed.status.kind === 'unreachable') return [`${name}: unreachable (${feed.status.message}); retrying`];
      if (feed.status.kind === 'connecting') return [`${name}: connecting…`];
      return [];
    });
  }

  /** The event rules' firings since the view started, and the last one. */
  private rulesText(now: number): string {
    const fired = this.feeds.reduce((sum, feed) => sum + feed.fleet.rules.fired, 0);
    const last = this.feeds.map((feed) => feed.fleet.rules.last).filter((entry) => entry !== undefined).sort((a, b) => b.at - a.at)[0];
    return last ? ` · rules fired ${fired}, last ${last.rule} ${last.what} ${last.outcome} ${age(now - last.at)} ago` : '';
  }

  private draw(): void {
    if (this.attached) return;
    const { output } = this.options;
    const cols = output.columns ?? 80;
    const now = Date.now();
    const rows = this.rows();
    let index = rows.findIndex((row) => this.keyOf(row) === this.selected);
    if (index === -1) {
      index = 0;
      this.selected = rows[0] ? this.keyOf(rows[0]) : undefined;
    }
    const notices = this.notices();
    const body = Math.max(1, this.bodyRows());
    if (index < this.top) this.top = index;
    if (index >= this.top + body) this.top = index - body + 1;
    this.top = Math.max(0, Math.min(this.top, Math.max(0, rows.length - body)));
    const visible = rows.slice(this.top, this.top + body);
    const head = header(this.qualify);
    const table = visible.map((row) => rowCells(row, now, this.home, this.qualify));
    const columnWidths = widths(table, cols, head);
    const stateColumn = head.indexOf('STATE');
    const counts = stateCounts(rows);
    const workspaces = this.feeds.reduce((sum, feed) => sum + feed.fleet.workspaceCount, 0);
    const hosts = this.qualify ? ` on ${this.feeds.length} servers` : '';
    const title = `herdr watch · ${rows.length} panes in ${workspaces} workspaces${hosts} · ` +
      `${counts.blocked} blocked · ${counts.working} working · ${counts.idle} idle · ${counts.unknown} unknown${this.rulesText(now)}`;
    const lines = [
      `\x1b[1m${clip(title, cols)}\x1b[0m`,
      ...notices.map((notice) => `\x1b[31m${clip(notice, cols)}\x1b[0m`),
      `\x1b[2m${line(head, columnWidths, undefined)}\x1b[0m`,
      ...table.map((cellsOfRow, i) => {
        const text = line(cellsOfRow, columnWidths, stateColumn);
        const row = visible[i];
        return row && this.keyOf(row) === this.selected ? `\x1b[7m${text.replaceAll('\x1b[0m', '\x1b[0;7m')}\x1b[0m` : text;
      }),
    ];
    while (lines.length < body + 2 + notices.length) lines.push('');
    const notified = this.notificationText(now);
    if (notified !== undefined) lines.push(`\x1b[1;36m${clip(notified, cols)}\x1b[0m`);
    const help = rows.length === 0 ? 'no panes yet · q quit' : '↑↓ select · Enter attach (Ctrl-\\ detaches) · 1-9 answer a blocked agent · q quit';
    lines.push(this.notice === undefined ? `\x1b[2m${clip(help, cols)}\x1b[0m` : `\x1b[1m${clip(this.notice, cols)}\x1b[0m`);
    output.write(`\x1b[H${lines.map((text) => `${text}\x1b[K`).join('\r\n')}\x1b[J`);
  }
}
