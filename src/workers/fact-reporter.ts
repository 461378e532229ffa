/**
 * Pane facts the main thread caches (revision, title, cwd and its label) are
 * sent as changes only, batched: panes marked changed are looked at most once
 * per UPDATE_INTERVAL_MS per shard, and a slow sweep catches a `cd` that
 * printed nothing.
 */
import type { PaneUpdate } from '../protocol/thread.js';
import type { Clock, Timer } from './clock.js';

/** Pane facts are posted at most this often per shard. */
export const UPDATE_INTERVAL_MS = 50;
/** cwd can change without output (rare); a slow sweep catches it. */
export const SWEEP_INTERVAL_MS = 2000;

export interface FactSource {
  readonly uid: number;
  readonly pid: number;
  readonly revision: number;
  readonly title: string;
}

export interface FactProbes {
  /** The process's current directory, when readable. */
  cwd(pid: number): string | undefined;
  label(cwd: string): string;
}

interface Sent {
  revision: number;
  title: string;
  cwd: string | undefined;
}

export class FactReporter {
  private readonly sent = new Map<number, Sent>();
  private readonly panes = new Map<number, FactSource>();
  private readonly changed = new Set<number>();
  private flushTimer: Timer | undefined;
  private sweepTimer: Timer | undefined;

  constructor(
    private readonly post: (updates: PaneUpdate[]) => void,
    private readonly probes: FactProbes,
    private readonly clock: Clock,
  ) {}

  /** A new pane, with the facts main already has from its spawn. */
  add(pane: FactSource, cwd: string): void {
    this.panes.set(pane.uid, pane);
    this.sent.set(pane.uid, { revision: pane.revision, title: pane.title, cwd });
    this.sweepTimer ??= this.clock.after(SWEEP_INTERVAL_MS, () => this.sweep());
  }

  remove(paneUid: number): void {
    this.panes.delete(paneUid);
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
    for (const uid of this.changed) {
      const pane = this.panes.get(uid);
      const update = pane && this.updateOf(pane);
      if (update) updates.push(update);
    }
    this.changed.clear();
    if (updates.length > 0) this.post(updates);
  }

  private updateOf(pane: FactSource): PaneUpdate | undefined {
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
    const cwd = this.probes.cwd(pane.pid);
    if (cwd !== undefined && cwd !== sent.cwd) {
      update.cwd = sent.cwd = cwd;
      update.cwdLabel = this.probes.label(cwd);
      changed = true;
    }
    return changed ? update : undefined;
  }

  private sweep(): void {
    this.sweepTimer = undefined;
    if (this.panes.size === 0) return;
    for (const uid of this.panes.keys()) this.touch(uid);
    this.sweepTimer = this.clock.after(SWEEP_INTERVAL_MS, () => this.sweep());
  }
}
