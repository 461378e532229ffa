/**
 * When a pane's changed screen is looked at again (output matchers, agent
 * state). A pane that was quiet for its interval is looked at right after the
 * read that changed it (leading edge: a match is answered within
 * milliseconds, even while other panes flood); a pane that keeps changing is
 * looked at once per interval, so a flood costs one look per pane per
 * interval however many reads it takes.
 */
import type { Clock, Timer } from './clock.js';

/** ARCHITECTURE.md: per-pane leading edge, then at most one look per 16 ms. */
export const EVALUATION_INTERVAL_MS = 16;
/**
 * The interval for a pane whose agent is working and whose screen nothing else
 * waits on (no output matcher, no prompt being typed): a working CLI redraws its
 * spinner 10–40 times a second and every redraw was a look, a third of a working
 * fleet's server CPU (ARCHITECTURE.md, "What a working agent costs"). Its turn's
 * end or its question is seen at most this much later.
 */
export const WORKING_LOOK_INTERVAL_MS = 100;

export class EvaluationScheduler {
  /** When each pane was last looked at. */
  private readonly lastLook = new Map<number, number>();
  private readonly soon = new Set<number>();
  /** Panes waiting for their interval to pass, with that interval. */
  private readonly later = new Map<number, number>();
  private soonQueued = false;
  private laterTimer: Timer | undefined;
  private laterDueAt = 0;

  constructor(
    private readonly look: (paneUid: number, now: number) => void,
    private readonly clock: Clock,
    private readonly intervalMs = EVALUATION_INTERVAL_MS,
  ) {}

  /** The pane's screen changed; it is looked at no sooner than `intervalMs` after its last look. */
  changed(paneUid: number, intervalMs = this.intervalMs): void {
    if (this.soon.has(paneUid)) return;
    const waiting = this.later.get(paneUid);
    // A pane that now needs a closer look (a matcher was added, its agent stopped working) waits less.
    if (waiting !== undefined && waiting <= intervalMs) return;
    const last = this.lastLook.get(paneUid);
    if (last === undefined || this.clock.now() - last >= intervalMs) {
      this.later.delete(paneUid);
      this.soon.add(paneUid);
      if (!this.soonQueued) {
        this.soonQueued = true;
        this.clock.soon(() => this.runSoon());
      }
    } else {
      this.later.set(paneUid, intervalMs);
      this.armLater(last + intervalMs);
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
    for (const [uid, intervalMs] of [...this.later]) {
      if (now - (this.lastLook.get(uid) ?? 0) < intervalMs) continue;
      this.later.delete(uid);
      this.lookAt(uid, now);
    }
    let due = Number.POSITIVE_INFINITY;
    for (const [uid, intervalMs] of this.later) due = Math.min(due, (this.lastLook.get(uid) ?? 0) + intervalMs);
    if (this.later.size > 0) this.armLater(due);
  }

  /** The waiting panes' timer fires by `dueAt` (the clock's time). */
  private armLater(dueAt: number): void {
    if (this.laterTimer !== undefined && this.laterDueAt <= dueAt) return;
    this.laterTimer?.cancel();
    this.laterDueAt = dueAt;
    this.laterTimer = this.clock.after(Math.max(1, dueAt - this.clock.now()), () => this.runLater());
  }

  private lookAt(uid: number, now: number): void {
    this.lastLook.set(uid, now);
    this.look(uid, now);
  }
}
