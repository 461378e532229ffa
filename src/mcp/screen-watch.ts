/**
 * `resources/subscribe` of a pane's screen: a `pane.stream` per subscribed
 * pane tells when its screen changes, and `notifications/resources/updated`
 * goes out at most every 250 ms per pane (the first change at once, the rest
 * of a burst folded into one at the end of the interval). Opening the stream
 * is a look, as an attach is: a `done` agent there turns `idle`.
 */
import type { HerdrClient, PaneOutputStream } from '../client/client.js';

/** At most four updates a second per pane. */
export const MIN_UPDATE_INTERVAL_MS = 250;

interface Watch {
  stream: PaneOutputStream;
  lastSent: number;
  timer: NodeJS.Timeout | undefined;
}

export class ScreenWatch {
  private readonly watches = new Map<string, Watch>();

  constructor(
    /** Sends the update for a pane (by the id it was watched as); `gone` once its pane exited. */
    private readonly updated: (paneId: string, gone: boolean) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Starts watching a pane (`paneId` on `client`'s server, known as `key`); rejects as `pane.stream` does (pane_not_found). */
  async watch(key: string, client: HerdrClient, paneId: string): Promise<void> {
    if (this.watches.has(key)) return;
    const stream = await client.stream(paneId, { id: `mcp:screen:${paneId}`, look: false });
    if (this.watches.has(key)) return stream.close();
    const watch: Watch = { stream, lastSent: 0, timer: undefined };
    this.watches.set(key, watch);
    void this.follow(key, watch);
  }

  unwatch(paneId: string): void {
    const watch = this.watches.get(paneId);
    if (!watch) return;
    this.watches.delete(paneId);
    clearTimeout(watch.timer);
    watch.stream.close();
  }

  close(): void {
    for (const paneId of [...this.watches.keys()]) this.unwatch(paneId);
  }

  private async follow(paneId: string, watch: Watch): Promise<void> {
    try {
      for await (const line of watch.stream) {
        if (line.event !== 'pane.exited') this.changed(paneId, watch);
      }
    } catch (error) {
      this.log(`the screen stream of ${paneId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Ended by the pane's exit (or the server's): said once; ended by unwatch: nothing to say.
    if (this.watches.get(paneId) !== watch) return;
    this.watches.delete(paneId);
    clearTimeout(watch.timer);
    this.updated(paneId, true);
  }

  private changed(paneId: string, watch: Watch): void {
    if (watch.timer) return;
    const wait = watch.lastSent + MIN_UPDATE_INTERVAL_MS - Date.now();
    const send = () => {
      watch.timer = undefined;
      watch.lastSent = Date.now();
      this.updated(paneId, false);
    };
    if (wait <= 0) send();
    else watch.timer = setTimeout(send, wait);
  }
}
