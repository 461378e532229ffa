/** A clock the test moves by hand, for the shard's timing pieces (src/workers/clock.ts). */
import type { Clock, Timer } from '../../src/workers/clock.js';

interface Scheduled {
  at: number;
  task: () => void;
  cancelled: boolean;
}

export class ManualClock implements Clock {
  private time = 1_000_000;
  private timers: Scheduled[] = [];
  private soonTasks: Array<() => void> = [];

  now(): number {
    return this.time;
  }

  after(ms: number, task: () => void): Timer {
    const timer: Scheduled = { at: this.time + ms, task, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  soon(task: () => void): void {
    this.soonTasks.push(task);
  }

  /** Runs what `soon` queued (the end of the current event-loop turn). */
  endTurn(): void {
    for (const task of this.soonTasks.splice(0)) task();
  }

  /** Moves time on by `ms`, running each timer that falls due at its own time, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      due.cancelled = true;
      due.task();
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.time = end;
  }

  /** Moves time on without running timers, as a busy event loop does; `advance(0)` then runs them late. */
  stall(ms: number): void {
    this.time += ms;
  }

  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
