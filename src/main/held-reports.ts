/**
 * Shard reports about panes that are started but not yet in the registry.
 * `layout.apply` starts all its panes first and adds them only once every one
 * started (so a half-built workspace is never seen); meanwhile a pane may
 * already exit, change directory or show an agent. Its reports wait here and
 * are applied, in the order they came, once the panes are added and the
 * request's events are out, or dropped when the panes are ended instead.
 */
export class HeldReports {
  private readonly holding = new Set<number>();
  private queue: Array<{ paneUid: number; replay: () => void }> = [];

  /** Reports about these panes wait from now on. */
  hold(paneUids: readonly number[]): void {
    for (const uid of paneUids) this.holding.add(uid);
  }

  /** Queues `replay` when the pane's reports are held (true), else leaves it to the caller to apply now (false). */
  deferred(paneUid: number, replay: () => void): boolean {
    if (this.holding.size === 0 || !this.holding.has(paneUid)) return false;
    this.queue.push({ paneUid, replay });
    return true;
  }

  /** Stops holding and applies what came meanwhile (the panes are in the registry now). */
  release(paneUids: readonly number[]): void {
    for (const replay of this.take(paneUids)) replay();
  }

  /** Stops holding and forgets what came (the panes were ended and never added). */
  drop(paneUids: readonly number[]): void {
    this.take(paneUids);
  }

  private take(paneUids: readonly number[]): Array<() => void> {
    const uids = new Set(paneUids);
    for (const uid of uids) this.holding.delete(uid);
    const due = this.queue.filter((entry) => uids.has(entry.paneUid));
    if (due.length > 0) this.queue = this.queue.filter((entry) => !uids.has(entry.paneUid));
    return due.map((entry) => entry.replay);
  }
}
