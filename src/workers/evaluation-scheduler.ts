/**
 * When a pane's changed screen is looked at again (output matchers, agent
 * state). A pane that was quiet for INTERVAL_MS is looked at right after the
 * read that changed it (leading edge: a match is answered within
 * milliseconds, even while other panes flood); a pane that keeps changing is
 * looked at once per INTERVAL_MS, so a flood costs one look per pane per
 * interval however many reads it takes.
 */
import type { Clock, Timer } from './clock.js';

/** ARCHITECTURE.md: per-pane leading edge, then at most one look per 16 ms. */
export const EVALUATION_INTERVAL_MS = 16;

export class EvaluationScheduler {
  /** When each pane was last looked at. */
  private readonly lastLook = new Map<number, number>();
  private readonly soon = new Set<number>();
  private readonly later = new Set<number>();
  private soonQueued = false;
  private laterTimer: Timer | undefined;

  constructor(
    private readonly look: (paneUid: number, now: number) => void,
    private readonly clock: Clock,
    private readonly intervalMs = EVALUATION_INTERVAL_MS,
  ) {}

  /** The pane's screen changed. */
  changed(paneUid: number): void {
    if (this.soon.has(paneUid) || this.later.has(paneUid)) return;
    const last = this.lastLook.get(paneUid);
    if (last === undefined || this.clock.now() - last >= this.intervalMs) {
      this.soon.add(paneUid);
      if (!this.soonQueued) {
        this.soonQueued = true;
        this.clock.soon(() => this.runSoon());
      }
    } else {
      this.later.add(paneUid);
      this.laterTimer ??= this.clock.after(this.intervalMs, () => this.runLater());
    }
  }

  forget(paneUid: number): void {
    this.lastLook.delete(paneUid);
    this.soon.delete(paneUid);
    this.later.delete(paneUid);
  }

  private runSoon(): void {
    this.soonQueued = false;
    const now = this.clock.now();
    const due = [...this.soon];
    this.soon.clear();
    for (const uid of due) this.lookAt(uid, now);
  }

  /** Looks at the panes whose interval has passed; the others wait for the next tick. */
  private runLater(): void {
    this.laterTimer = undefined;
    const now = this.clock.now();
    for (const uid of [...this.later]) {
      if (now - (this.lastLook.get(uid) ?? 0) < this.intervalMs) continue;
      this.later.delete(uid);
      this.lookAt(uid, now);
    }
    if (this.later.size > 0) this.laterTimer = this.clock.after(this.nextDue(now), () => this.runLater());
  }

  private nextDue(now: number): number {
    let wait = this.intervalMs;
    for (const uid of this.later) wait = Math.min(wait, (this.lastLook.get(uid) ?? 0) + this.intervalMs - now);
    return Math.max(1, wait);
  }

  private lookAt(uid: number, now: number): void {
    this.lastLook.set(uid, now);
    this.look(uid, now);
  }
}
