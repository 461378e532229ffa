/**
 * How often one pane may tell main that a fact changed. A program decides how
 * often its agent state or its last command changes: printing OSC 7501
 * working/idle in a loop made a million changes a second, each one a message
 * to main and an event to every subscriber, until main stopped answering and
 * the shard missed its heartbeats (ARCHITECTURE.md, "Reports from shards").
 *
 * A token bucket: a burst of REPORT_BURST changes passes at once (commands
 * typed in a row each get their event), refilled at REPORTS_PER_SECOND.
 * Past that, changes wait for the next token and only the latest is passed,
 * unless it equals what was passed last. A pane's final state always arrives.
 */
import type { Clock, Timer } from './clock.js';

export const REPORTS_PER_SECOND = 20;
export const REPORT_BURST = 20;
const TOKEN_MS = 1000 / REPORTS_PER_SECOND;

export class ReportThrottle<T> {
  private tokens = REPORT_BURST;
  private refilledAt: number;
  private lastPassed: { value: T } | undefined;
  private waiting: { value: T } | undefined;
  private timer: Timer | undefined;

  constructor(
    private readonly pass: (value: T) => void,
    private readonly same: (a: T, b: T) => boolean,
    private readonly clock: Clock,
  ) {
    this.refilledAt = clock.now();
  }

  offer(value: T): void {
    if (!this.timer && this.take()) {
      this.passOn(value);
      return;
    }
    this.waiting = { value };
    this.timer ??= this.clock.after(Math.max(0, this.refilledAt + TOKEN_MS - this.clock.now()), () => this.passWaiting());
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.waiting = undefined;
  }

  private passWaiting(): void {
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting || (this.lastPassed && this.same(waiting.value, this.lastPassed.value))) return;
    if (this.take()) this.passOn(waiting.value);
    else this.offer(waiting.value);
  }

  /** Refills for the time gone by, then takes a token if there is one. */
  private take(): boolean {
    const now = this.clock.now();
    const earned = Math.floor((now - this.refilledAt) / TOKEN_MS);
    if (earned > 0) {
      this.tokens = Math.min(REPORT_BURST, this.tokens + earned);
      this.refilledAt = this.tokens === REPORT_BURST ? now : this.refilledAt + earned * TOKEN_MS;
    }
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  private passOn(value: T): void {
    this.lastPassed = { value };
    this.pass(value);
  }
}
