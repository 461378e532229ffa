/**
 * A full GC once a shard goes quiet after heavy output. Node runs no idle-time
 * GC, so the garbage of a burst (decoded chunks, row strings, zlib buffers)
 * would otherwise stay committed until the next burst; after 10 000 lines
 * into 50 panes that was ~1 MB of RSS a pane.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collect after this much output since the last collection… */
const BYTES_BETWEEN_COLLECTIONS = 16 * 1024 * 1024;
/** …once no output has been parsed for this long. */
const QUIET_MS = 1000;

function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export class IdleCollector {
  private readonly gc = exposeGc();
  private sinceCollection = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Called with the bytes of each parsed write. */
  parsed(bytes: number): void {
    if (!this.gc) return;
    this.sinceCollection += bytes;
    if (this.sinceCollection < BYTES_BETWEEN_COLLECTIONS) return;
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => this.collect(), QUIET_MS);
      this.timer.unref();
    }
  }

  private collect(): void {
    this.timer = undefined;
    this.sinceCollection = 0;
    this.gc?.();
  }
}
