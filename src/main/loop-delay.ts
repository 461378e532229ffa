/**
 * The main thread's event-loop delay, for `server.stats` (how responsive the router is to its
 * clients). The loop is sampled while clients ask something and for a window after: the
 * sampling timer wakes the main thread 50 times a second, and on an idle server with no one
 * asking that was most of its CPU (ARCHITECTURE.md, "What an idle pane costs").
 */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Each histogram covers this long; figures span the current and the previous one. */
const WINDOW_MS = 10_000;
/** How often the loop is sampled while it is: a stall shorter than this is still seen by the next sample. */
const RESOLUTION_MS = 20;

/**
 * Node's histogram records the interval between two of its ticks, RESOLUTION_MS included (an idle
 * loop reads ~20 ms); the delay is what the tick came late by.
 */
function delayMs(intervalNanoseconds: number): number {
  if (!Number.isFinite(intervalNanoseconds)) return 0;
  return Math.max(0, Math.round((intervalNanoseconds / 1e6 - RESOLUTION_MS) * 100) / 100);
}

export class LoopDelayMonitor {
  /** Whether the loop is being sampled now. */
  get sampling(): boolean {
    return this.current !== undefined;
  }

  /** Sampling now (undefined: no one asked anything for a whole window). */
  private current: IntervalHistogram | undefined;
  private previous: IntervalHistogram | undefined;
  private askedInWindow = false;
  private readonly rotate: NodeJS.Timeout;

  constructor(windowMs = WINDOW_MS) {
    this.asked();
    this.rotate = setInterval(() => {
      // The window just ended is read, no longer sampled; the next is sampled if it is asked for.
      this.current?.disable();
      this.previous = this.current;
      this.current = undefined;
      if (this.askedInWindow) this.sample();
      this.askedInWindow = false;
    }, windowMs);
    this.rotate.unref();
  }

  /** A client asked something (a request line): the loop is sampled from now to the end of the next window at least. */
  asked(): void {
    this.askedInWindow = true;
    if (!this.current) this.sample();
  }

  /** p99 over the last 10–20 s of sampling. */
  p99Ms(): number {
    return delayMs(Math.max(0, ...this.windows().map((h) => h.percentile(99))));
  }

  /** The worst single stall over the last 10–20 s of sampling. */
  maxMs(): number {
    return delayMs(Math.max(0, ...this.windows().map((h) => h.max)));
  }

  stop(): void {
    clearInterval(this.rotate);
    this.current?.disable();
    this.current = undefined;
  }

  private sample(): void {
    this.current = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.current.enable();
  }

  private windows(): IntervalHistogram[] {
    return [this.current, this.previous].filter((h): h is IntervalHistogram => h !== undefined && h.count > 0);
  }
}
