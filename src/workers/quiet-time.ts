/**
 * What a shard does once it goes quiet after output or closes: seal its panes' full
 * history blocks (history.ts), collect garbage after a heavy burst, and give
 * the pages freed back to the system. Node runs no idle-time GC, so the
 * garbage of a burst (decoded chunks, row strings, zlib buffers) would
 * otherwise stay committed until the next burst (after 10 000 lines into 50
 * panes that was ~1 MB of RSS a pane), and glibc keeps freed pages inside
 * its arenas.
 */
import { fullGc } from '../os/full-gc.js';
import { trimMalloc } from '../os/malloc-tuning.js';

/** Output since the last quiet time that makes the next one worth having (a full history block is 32 KB)… */
const BYTES_BEFORE_QUIET_WORK = 32 * 1024;
/** …a full GC only after this much… */
const BYTES_BETWEEN_COLLECTIONS = 16 * 1024 * 1024;

/** What an ended pane's emulator, buffers and history weigh against BYTES_BETWEEN_COLLECTIONS: closing 32 panes earns a collection as 16 MB of output does. */
const PANE_END_WEIGHT_BYTES = BYTES_BETWEEN_COLLECTIONS / 32;

/** Between the collections of a quiet time, and from the last to giving the freed pages back. */
const TRIM_AFTER_MS = 100;

export class QuietTime {
  private readonly gc = fullGc();
  private sinceQuiet = 0;
  private sinceCollection = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * `seal` seals the shard's full history blocks and says how many; `quietMs`:
   * how long no output may be parsed first. Giving memory back is paid again by
   * the next burst, which takes it back (ARCHITECTURE.md, "Shard heap" and the
   * bench's quiet-time figures), so a
   * shard waits until it looks idle, not merely between two bursts.
   */
  constructor(
    private readonly seal: () => number,
    private readonly quietMs: number,
  ) {}

  /** Called with the bytes of each parsed write. */
  parsed(bytes: number): void {
    this.sinceQuiet += bytes;
    this.sinceCollection += bytes;
    this.scheduleIfDue();
  }

  /**
   * Called when a pane ended: its emulator and buffers are garbage now, and a shard whose
   * panes print nothing (a fleet opened and closed again) would otherwise keep them
   * committed until output came.
   */
  paneEnded(): void {
    this.sinceQuiet += BYTES_BEFORE_QUIET_WORK;
    this.sinceCollection += PANE_END_WEIGHT_BYTES;
    this.scheduleIfDue();
  }

  private scheduleIfDue(): void {
    if (this.sinceQuiet < BYTES_BEFORE_QUIET_WORK) return;
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => this.quiet(), this.quietMs);
      this.timer.unref();
    }
  }

  private quiet(): void {
    this.timer = undefined;
    this.sinceQuiet = 0;
    const sealed = this.seal();
    if (sealed === 0 && this.sinceCollection < BYTES_BETWEEN_COLLECTIONS) return;
    this.sinceCollection = 0;
    void this.collect();
  }

  /** A full GC, and the pages it freed given back to the system; resolves once they are. */
  async collect(): Promise<void> {
    const gc = this.gc;
    if (!gc) return;
    const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, TRIM_AFTER_MS).unref());
    gc();
    // Each compression's native state (brotli's is ~45 KB) is freed by a weak callback
    // after the collection that found its handle unreachable; a second one reclaims it.
    // V8 frees buffers' memory off the thread after a collection: trim once it has.
    await pause();
    gc();
    await pause();
    trimMalloc();
  }
}
