/** The main thread's event-loop delay, for `server.stats` (how responsive the router is). */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Each histogram covers this long; figures span the current and the previous one. */
const WINDOW_MS = 10_000;

function newHistogram(): IntervalHistogram {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return histogram;
}

function toMs(nanoseconds: number): number {
  return Number.isFinite(nanoseconds) ? Math.round((nanoseconds / 1e6) * 100) / 100 : 0;
}

export class LoopDelayMonitor {
  private current = newHistogram();
  private previous: IntervalHistogram | undefined;
  private readonly rotate: NodeJS.Timeout;

  constructor() {
    this.rotate = setInterval(() => {
      this.previous?.disable();
      this.previous = this.current;
      this.current = newHistogram();
    }, WINDOW_MS);
    this.rotate.unref();
  }

  /** p99 over the last 10–20 s. */
  p99Ms(): number {
    const samples = [this.current, this.previous].filter((h): h is IntervalHistogram => h !== undefined && h.count > 0);
    return toMs(Math.max(0, ...samples.map((h) => h.percentile(99))));
  }

  /** The worst single stall over the last 10–20 s. */
  maxMs(): number {
    const samples = [this.current, this.previous].filter((h): h is IntervalHistogram => h !== undefined && h.count > 0);
    return toMs(Math.max(0, ...samples.map((h) => h.max)));
  }

  stop(): void {
    clearInterval(this.rotate);
    this.current.disable();
    this.previous?.disable();
  }
}
