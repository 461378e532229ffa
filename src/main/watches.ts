/**
 * The main thread's side of output matchers: ids, which shard holds each, and
 * who to tell when it flips or its pane goes away. The main thread never reads
 * pane text to decide a match; it only routes the shard's flips.
 */
import type { ReadResult, WatchParams } from '../protocol/thread.js';
import type { PaneRecord } from './registry.js';
import type { ShardHandle } from './shard-handle.js';

export type WatchChange = { matched: true; matchedLine: string; read: ReadResult } | { matched: false };

export interface WatchHandlers {
  changed(change: WatchChange): void;
  /** The pane closed or exited; the watch is already forgotten. */
  gone(): void;
}

export interface Watch {
  matcherId: number;
  /** Resolves once the shard has the matcher (and evaluated the current text). */
  ready: Promise<void>;
}

interface ActiveWatch {
  paneUid: number;
  shard: ShardHandle;
  handlers: WatchHandlers;
}

export class Watches {
  private nextId = 1;
  private readonly active = new Map<number, ActiveWatch>();

  get count(): number {
    return this.active.size;
  }

  watch(pane: PaneRecord, shard: ShardHandle, spec: Omit<WatchParams, 'matcherId' | 'paneUid'>, handlers: WatchHandlers): Watch {
    const matcherId = this.nextId++;
    this.active.set(matcherId, { paneUid: pane.uid, shard, handlers });
    const ready = shard.request('watch', { ...spec, matcherId, paneUid: pane.uid }).then(() => undefined);
    ready.catch(() => this.paneGone(pane.uid));
    return { matcherId, ready };
  }

  unwatch(matcherId: number): void {
    const watch = this.active.get(matcherId);
    if (!watch) return;
    this.active.delete(matcherId);
    void watch.shard.request('unwatch', { matcherId }).catch(() => undefined);
  }

  /** From the shard: a matcher flipped. */
  changed(matcherId: number, change: WatchChange): void {
    this.active.get(matcherId)?.handlers.changed(change);
  }

  /** The pane is gone: its shard already dropped its matchers. */
  paneGone(paneUid: number): void {
    for (const [matcherId, watch] of this.active) {
      if (watch.paneUid !== paneUid) continue;
      this.active.delete(matcherId);
      watch.handlers.gone();
    }
  }
}
