/**
 * Whether a pane is printing (docs/protocol.md §10.7): what a shell or a program no detector
 * knows shows in place of an agent state. A shard posts a pane's new revision at most every
 * 50 ms while it prints (workers/fact-reporter.ts); that post is the output's heartbeat, so
 * activity costs no thread message of its own. A pane turns active on the first post and
 * quiet OUTPUT_QUIET_MS after the last, each turn one `pane.output_activity` event; one timer
 * looks at the active panes while there are any.
 */
import type { EventHub } from './event-hub.js';
import { paneMeta, paneRef } from './ids.js';
import type { PaneRecord, Registry } from './registry.js';

/** A pane that printed nothing for this long is quiet. */
export const OUTPUT_QUIET_MS = 2000;
const SWEEP_MS = 500;

export class OutputActivity {
  private readonly active = new Set<PaneRecord>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly events: EventHub,
  ) {}

  /** The shard saw new output in the pane. */
  printed(pane: PaneRecord): void {
    const now = Date.now();
    pane.output.lastAt = now;
    if (pane.output.activeSince !== undefined) return;
    pane.output.activeSince = now;
    this.active.add(pane);
    this.publish(pane);
    this.timer ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const pane of this.active) {
      const gone = this.registry.paneByUid(pane.uid) !== pane;
      if (!gone && now - (pane.output.lastAt ?? 0) < OUTPUT_QUIET_MS) continue;
      this.active.delete(pane);
      pane.output.activeSince = undefined;
      if (!gone) this.publish(pane);
    }
    if (this.active.size === 0) this.stop();
  }

  private publish(pane: PaneRecord): void {
    const { lastAt, activeSince } = pane.output;
    const data = { ...paneRef(pane), active: activeSince !== undefined, last_output_at: lastAt ?? 0, ...(activeSince === undefined ? {} : { active_since: activeSince }) };
    this.events.publish({ event: 'pane.output_activity', data }, paneMeta(pane));
  }
}
