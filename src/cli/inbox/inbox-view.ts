/**
 * `herdr inbox`: every blocked agent of one server or several (docs/protocol.md §13.6) on
 * the whole terminal, live, the longest-waiting first, each with its question and its
 * menu's options. ↑/↓ select an agent, a digit answers it with that option
 * (`approvals.answer`: typed only while the same question is on its screen), q quits.
 * Each server's HostFeed (one event subscription) says when something changed; its
 * approvals are then listed again, at most every 250 ms.
 */
import { HerdrClient } from '../../client/client.js';
import { HostFeed } from '../../client/fleet/host-feed.js';
import type { HostTarget } from '../../client/transport.js';
import type { Approval } from '../../protocol/methods/approvals.js';
import { clip } from '../../protocol/text.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from '../full-screen.js';
import { isDigitKey, parseKeys } from '../watch/watch-view.js';
import { answerLine } from '../answer-line.js';
import { age } from '../table.js';
import { approvalId } from './inbox-table.js';

const RELIST_MS = 250;
const CLOCK_MS = 1000;

interface HostApprovals {
  readonly target: HostTarget;
  readonly client: HerdrClient;
  approvals: Approval[];
  error: string | undefined;
  timer: NodeJS.Timeout | undefined;
}

export class InboxView {
  private readonly hosts: HostApprovals[];
  private readonly feeds: HostFeed[];
  private selected = 0;
  private notice = '';
  private clock: NodeJS.Timeout | undefined;
  private finish: ((code: number) => void) | undefined;

  constructor(
    targets: readonly HostTarget[],
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
  ) {
    this.hosts = targets.map((target) => ({ target, client: new HerdrClient({ dialer: target.dialer }), approvals: [], error: undefined, timer: undefined }));
    this.feeds = this.hosts.map((host) => new HostFeed(host.target.host, host.target.dialer, { changed: () => this.relistSoon(host) }));
  }

  run(): Promise<number> {
    this.output.write(ENTER_SCREEN);
    if (this.input.isTTY) this.input.setRawMode(true);
    this.input.on('data', this.onInput);
    this.output.on('resize', this.draw);
    this.clock = setInterval(this.draw, CLOCK_MS);
    for (const feed of this.feeds) feed.start();
    for (const host of this.hosts) this.relistSoon(host);
    this.draw();
    return new Promise((resolve) => (this.finish = resolve));
  }

  private stop(code: number): void {
    clearInterval(this.clock);
    for (const feed of this.feeds) feed.stop();
    for (const host of this.hosts) {
      clearTimeout(host.timer);
      host.client.close();
    }
    this.input.off('data', this.onInput);
    this.output.off('resize', this.draw);
    if (this.input.isTTY) this.input.setRawMode(false);
    this.input.pause();
    this.output.write(LEAVE_SCREEN);
    this.finish?.(code);
  }

  private relistSoon(host: HostApprovals): void {
    if (host.timer) return;
    host.timer = setTimeout(() => {
      host.timer = undefined;
      host.client.call('approvals.list', {}).then(
        ({ approvals }) => {
          host.approvals = approvals;
          host.error = undefined;
          this.draw();
        },
        (error: unknown) => {
          host.error = error instanceof Error ? error.message : String(error);
          this.draw();
        },
      );
    }, RELIST_MS);
  }

  /** Every approval with its host, the longest-waiting first. */
  private entries(): Array<{ host: HostApprovals; approval: Approval }> {
    return this.hosts.flatMap((host) => host.approvals.map((approval) => ({ host, approval }))).sort((a, b) => a.approval.since - b.approval.since);
  }

  private readonly onInput = (data: Buffer): void => {
    const text = data.toString('utf8');
    for (const key of parseKeys(text)) {
      if (key === 'quit') return this.stop(0);
      if (key === 'up') this.selected = Math.max(0, this.selected - 1);
      if (key === 'down') this.selected += 1;
      if (isDigitKey(key)) void this.answer(key);
    }
    this.draw();
  };

  private async answer(option: string): Promise<void> {
    const entry = this.entries()[this.selected];
    if (!entry) return;
    const { host, approval } = entry;
    this.notice = await answerLine(host.client, { paneId: approval.stable_id, questionHash: approval.question_hash, shown: approvalId(host.target.host, approval) }, option);
    this.relistSoon(host);
    this.draw();
  }

  private readonly draw = (): void => {
    const columns = this.output.columns || 100;
    const rows = this.output.rows || 30;
    const entries = this.entries();
    this.selected = Math.min(this.selected, Math.max(0, entries.length - 1));
    const now = Date.now();
    const lines: string[] = [`herdr inbox · ${entries.length} waiting · ↑/↓ select · 1-9 answer · q quit`, ''];
    for (const host of this.hosts) if (host.error) lines.push(`${host.target.host ?? 'local server'}: unreachable (${host.error})`);
    if (entries.length === 0) lines.push('Nothing waits for an answer.');
    entries.forEach(({ host, approval }, index) => {
      const mark = index === this.selected ? '▶' : ' ';
      const who = [approval.name, approval.agent].filter(Boolean).join(' · ') || 'agent';
      lines.push(`${mark} ${approvalId(host.target.host, approval)}  ${who}  ${age(now - approval.since)}  ${approval.question ?? ''}`);
      const options = approval.options.map((option) => `${option.key === approval.selected ? '❯' : ' '}${option.key} ${option.label}`);
      lines.push(`    ${options.length > 0 ? options.join('   ') : '(no menu on its screen: answer it in the pane)'}`);
    });
    const body = lines.slice(0, rows - 1).map((line) => clip(line, columns));
    const frame = `\x1b[H\x1b[2J${body.join('\r\n')}\x1b[${rows};1H${clip(this.notice, columns)}`;
    this.output.write(frame);
  };
}
