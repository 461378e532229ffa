/** The main thread's event-loop delay, for `server.stats` (how responsive the router is). */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Reported figures cover at most this long a window. */
const WINDOW_MS = 10_000;

export class LoopDelayMonitor {
  private readonly histogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly reset: NodeJS.Timeout;

  constructor() {
    this.histogram.enable();
    this.reset = setInterval(() => this.histogram.reset(), WINDOW_MS);
    this.reset.unref();
  }

  p99Ms(): number {
    return Math.round((this.histogram.percentile(99) / 1e6) * 100) / 100;
  }

  stop(): void {
    clearInterval(this.reset);
    this.histogram.disable();
  }
}
