/**
 * What keeps rules from running away: each rule's rate limit (at most `max` firings in
 * any `per_s` seconds) and its loop guard (at most `loop_guard` firings a minute that the
 * rule caused itself). A firing is self-caused when the pane whose event set it off was
 * reached by the rule's own actions within the last minute, directly or through other
 * rules: a pane an action reaches inherits the reach of the pane that caused it, so
 * A → B → A counts against A as much as A → A does.
 */
import type { RuleSkipReason } from '../../protocol/rules.js';

export const LOOP_WINDOW_MS = 60_000;

export interface GuardedRule {
  readonly id: string;
  readonly limit: { max: number; per_s: number };
  readonly loopGuard: number;
}

interface Windows {
  /** When each recent firing ran (rate limit). */
  ran: number[];
  /** When each recent self-caused firing ran (loop guard). */
  looped: number[];
}

export class FiringGuard {
  private readonly windows = new Map<string, Windows>();
  /** Per pane uid: the rules whose actions reached it, and when last. */
  private readonly reach = new Map<number, Map<string, number>>();

  /**
   * Whether the rule may fire now for an event of `causePane` (undefined: a schedule); if it
   * may, the firing is counted from here.
   */
  admit(rule: GuardedRule, causePane: number | undefined, now: number): RuleSkipReason | undefined {
    const windows = this.windowsOf(rule.id);
    prune(windows.ran, now - rule.limit.per_s * 1000);
    prune(windows.looped, now - LOOP_WINDOW_MS);
    const selfCaused = causePane !== undefined && (this.reach.get(causePane)?.get(rule.id) ?? -Infinity) > now - LOOP_WINDOW_MS;
    if (selfCaused && windows.looped.length >= rule.loopGuard) return 'loop_guard';
    if (windows.ran.length >= rule.limit.max) return 'rate_limited';
    windows.ran.push(now);
    if (selfCaused) windows.looped.push(now);
    return undefined;
  }

  /** The rule's action reached `target` (for an event of `causePane`). */
  reached(ruleId: string, causePane: number | undefined, target: number, now: number): void {
    const reach = this.reach.get(target) ?? new Map<string, number>();
    const inherited = causePane === undefined ? undefined : this.reach.get(causePane);
    for (const [id, at] of inherited ?? []) if (at > now - LOOP_WINDOW_MS && (reach.get(id) ?? 0) < at) reach.set(id, at);
    reach.set(ruleId, now);
    for (const [id, at] of reach) if (at <= now - LOOP_WINDOW_MS) reach.delete(id);
    this.reach.set(target, reach);
  }

  forgetRule(ruleId: string): void {
    this.windows.delete(ruleId);
    for (const reach of this.reach.values()) reach.delete(ruleId);
  }

  forgetPane(paneUid: number): void {
    this.reach.delete(paneUid);
  }

  private windowsOf(ruleId: string): Windows {
    let windows = this.windows.get(ruleId);
    if (!windows) this.windows.set(ruleId, (windows = { ran: [], looped: [] }));
    return windows;
  }
}

/** Drops the times at or before `oldest` (they are in order). */
function prune(times: number[], oldest: number): void {
  let stale = 0;
  while (stale < times.length && (times[stale] as number) <= oldest) stale++;
  if (stale > 0) times.splice(0, stale);
}
