/**
 * The main thread's side of output matchers: ids, which shard holds each, and
 * who to tell when it flips or its pane goes away. The main thread never reads
 * pane text to decide a match; it only routes the shard's flips.
 */
import type { MatchChange, MatcherParams } from '../protocol/thread.js';
import type { PaneRecord } from './registry.js';
import type { ShardHandle } from './shard-handle.js';

export interface MatcherHandlers {
  changed(change: MatchChange): void;
  /** The pane closed or exited; the matcher is already forgotten. */
  gone(): void;
}

export interface Matcher {
  matcherId: number;
  /** Resolves once the shard has the matcher (and evaluated the current text). */
  ready: Promise<void>;
}

interface ActiveMatcher {
  paneUid: number;
  shard: ShardHandle;
  handlers: MatcherHandlers;
}

export class OutputMatchers {
  private nextId = 1;
  private readonly active = new Map<number, ActiveMatcher>();

  add(pane: PaneRecord, shard: ShardHandle, spec: Omit<MatcherParams, 'matcherId' | 'paneUid'>, handlers: MatcherHandlers): Matcher {
    const matcherId = this.nextId++;
    this.active.set(matcherId, { paneUid: pane.uid, shard, handlers });
    const ready = shard.request('addMatcher', { ...spec, matcherId, paneUid: pane.uid }).then(() => undefined);
    ready.catch(() => this.paneGone(pane.uid));
    return { matcherId, ready };
  }

  remove(matcherId: number): void {
    const matcher = this.active.get(matcherId);
    if (!matcher) return;
    this.active.delete(matcherId);
    void matcher.shard.request('removeMatcher', { matcherId }).catch(() => undefined);
  }

  /** From the shard: a matcher flipped. */
  changed(matcherId: number, change: MatchChange): void {
    this.active.get(matcherId)?.handlers.changed(change);
  }

  /** The pane is gone: its shard already dropped its matchers. */
  paneGone(paneUid: number): void {
    for (const [matcherId, matcher] of this.active) {
      if (matcher.paneUid !== paneUid) continue;
      this.active.delete(matcherId);
      matcher.handlers.gone();
    }
  }
}
