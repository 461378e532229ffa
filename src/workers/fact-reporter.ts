/**
 * Pane facts the main thread caches (revision, title, cwd and its label) are
 * sent as changes only, batched: panes marked changed are looked at most once
 * per UPDATE_INTERVAL_MS per shard, and a slow sweep catches a `cd` that
 * printed nothing. A pane's cwd is read from /proc at most every
 * CWD_INTERVAL_MS: a flooding pane changes with every batch, and reading its
 * cwd 20 times a second was ~3% of a flooding shard's CPU (100 panes).
 */
import type { PaneUpdate, ScrollPosition } from '../protocol/thread.js';
import type { Clock, Timer } from './clock.js';

/** Pane facts are posted at most this often per shard. */
export const UPDATE_INTERVAL_MS = 50;
/** A pane's cwd is read at most this often; a change is seen at most this late. */
export const CWD_INTERVAL_MS = 250;
/**
 * cwd can change without output (rare: a typed `cd` echoes, an agent that moves prints); a
 * slow sweep catches it. Every 2 s, and then every 10 s, it was most of what an idle fleet's
 * shards did (a readlink per pane; ARCHITECTURE.md, "What an idle pane costs"). The shard
 * runs it from its process tick (`sweep`), so a quiet shard wakes once for both.
 */
export const SWEEP_INTERVAL_MS = 30_000;

export interface FactSource {
  readonly uid: number;
  readonly pid: number;
  readonly revision: number;
  readonly title: string;
  /** Its view's scroll position (scroll-view.ts); absent: not reported. */
  readonly scroll?: ScrollPosition | undefined;
}

export interface FactProbes {
  /** The process's current directory, when readable. */
  cwd(pid: number): string | undefined;
  label(cwd: string): string;
}

interface Sent {
  revision: number;
  title: string;
  scroll: ScrollPosition | undefined;
  cwd: string | undefined;
  /** The foreground process's directory, when a process other than the pane's own is in front. */
  foregroundCwd: string | undefined;
  /** When the cwd was last read. */
  cwdReadAt: number;
}

export class FactReporter {
  private readonly sent = new Map<number, Sent>();
  private readonly panes = new Map<number, FactSource>();
  /** Each pane's foreground process group as its agent checks last saw it. */
  private readonly foregrounds = new Map<number, () => number | undefined>();
  private readonly changed = new Set<number>();
  private flushTimer: Timer | undefined;

  constructor(
    private readonly post: (updates: PaneUpdate[]) => void,
    private readonly probes: FactProbes,
    private readonly clock: Clock,
  ) {}

  /** A new pane, with the facts main already has from its spawn. */
  add(pane: FactSource, cwd: string, foreground: () => number | undefined = () => undefined): void {
    this.panes.set(pane.uid, pane);
    this.foregrounds.set(pane.uid, foreground);
    this.sent.set(pane.uid, { revision: pane.revision, title: pane.title, scroll: pane.scroll, cwd, foregroundCwd: undefined, cwdReadAt: this.clock.now() });
  }

  remove(paneUid: number): void {
    this.panes.delete(paneUid);
    this.foregrounds.delete(paneUid);
    this.sent.delete(paneUid);
    this.changed.delete(paneUid);
  }

  /** Something about the pane may have changed; it is looked at with the next batch. */
  touch(paneUid: number): void {
    this.changed.add(paneUid);
    this.flushTimer ??= this.clock.after(UPDATE_INTERVAL_MS, () => this.flush());
  }

  private flush(): void {
    this.flushTimer = undefined;
    const updates: PaneUpdate[] = [];
    const now = this.clock.now();
    const cwdLater: number[] = [];
    for (const uid of this.changed) {
      const pane = this.panes.get(uid);
      const update = pane && this.updateOf(pane, now, cwdLater);
      if (update) updates.push(update);
    }
    this.changed.clear();
    if (updates.length > 0) this.post(updates);
    for (const uid of cwdLater) this.touch(uid);
  }

  /** What changed; a pane whose cwd was read too recently goes into `cwdLater`, to be looked at again. */
  private updateOf(pane: FactSource, now: number, cwdLater: number[]): PaneUpdate | undefined {
    const sent = this.sent.get(pane.uid);
    if (!sent) return undefined;
    const update: PaneUpdate = { paneUid: pane.uid };
    let changed = false;
    if (pane.revision !== sent.revision) {
      update.revision = sent.revision = pane.revision;
      changed = true;
    }
    if (pane.title !== sent.title) {
      update.title = sent.title = pane.title;
      changed = true;
    }
    const scroll = pane.scroll;
    if (scroll && !sameScroll(scroll, sent.scroll)) {
      update.scroll = sent.scroll = scroll;
      changed = true;
    }
    let cwd: string | undefined;
    let foregroundCwd: string | undefined;
    if (now - sent.cwdReadAt >= CWD_INTERVAL_MS) {
      cwd = this.probes.cwd(pane.pid);
      // One more read only while another process (an agent, a build) is in front.
      const group = this.foregrounds.get(pane.uid)?.();
      foregroundCwd = group !== undefined && group !== pane.pid ? this.probes.cwd(group) : undefined;
      sent.cwdReadAt = now;
      if (foregroundCwd !== sent.foregroundCwd) {
        sent.foregroundCwd = foregroundCwd;
        update.foregroundCwd = foregroundCwd ?? null;
        changed = true;
      }
    } else cwdLater.push(pane.uid);
    if (cwd !== undefined && cwd !== sent.cwd) {
      update.cwd = sent.cwd = cwd;
      update.cwdLabel = this.probes.label(cwd);
      changed = true;
    }
    return changed ? update : undefined;
  }

  /** Every pane looked at now, not a batch later (its caller's wake-up is the one it needs). */
  sweep(): void {
    if (this.panes.size === 0) return;
    for (const uid of this.panes.keys()) this.changed.add(uid);
    this.flushTimer?.cancel();
    this.flush();
  }
}

function sameScroll(a: ScrollPosition, b: ScrollPosition | undefined): boolean {
  return b !== undefined && a.offsetFromBottom === b.offsetFromBottom && a.maxOffsetFromBottom === b.maxOffsetFromBottom && a.viewportRows === b.viewportRows;
}
