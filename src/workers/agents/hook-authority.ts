/**
 * What agents' hooks said about one pane (docs/protocol.md §10.5): the last seq of
 * every source, each source's claim (agent, state, message) and the agent's
 * session. Pure state: PaneAgent says, from the foreground facts, whether a
 * claim's binding still holds.
 */
import type { AgentSession, AgentState } from '../../protocol/objects.js';
import { seqAdmits } from '../../protocol/report-seq.js';

/**
 * What a claim lasts as long as: the detected agent it named; for a label the
 * detector does not see (yet), the foreground process group that was in front
 * at its first report; or, for a report made while the pane's shell was in
 * front (before the agent started), the next group the shell puts in front.
 */
export type Binding =
  | { to: 'agent'; agent: string }
  | { to: 'group'; pgid: number }
  | { to: 'next-group'; shellPgid: number };

export interface Claim {
  agent: string;
  state: AgentState;
  message?: string;
  binding: Binding;
  /** Later claims win over earlier ones from other sources. */
  order: number;
  /** When the event it reports happened, ms since the epoch (its seq when that is a nanosecond clock, else its arrival). */
  at: number;
}

interface SessionRecord {
  source: string;
  agent: string;
  binding: Binding;
  value: AgentSession;
}

/** Whether a binding holds now: keep it, drop it, or keep the claim under a new binding. */
export type BindingCheck = (binding: Binding, agent: string) => 'holds' | 'gone' | Binding;

export class HookAuthority {
  private readonly seqs = new Map<string, bigint>();
  private readonly claims = new Map<string, Claim>();
  private session: SessionRecord | undefined;
  private order = 0;

  /**
   * The seq rules: a report from a source that sent a seq must carry a larger one.
   * Records the seq of an admitted report; false means drop it.
   */
  admit(source: string, seq: bigint | undefined): boolean {
    if (!seqAdmits(this.seqs.get(source), seq)) return false;
    if (seq !== undefined) this.seqs.set(source, seq);
    return true;
  }

  /** The binding a source's claim on `agent` already has, so a follow-up report keeps its first group. */
  bindingOf(source: string, agent: string): Binding | undefined {
    const claim = this.claims.get(source);
    if (claim?.agent === agent) return claim.binding;
    return this.session?.agent === agent ? this.session.binding : undefined;
  }

  claim(source: string, claim: Omit<Claim, 'order'>): void {
    this.claims.set(source, { ...claim, order: ++this.order });
  }

  recordSession(source: string, agent: string, binding: Binding, value: AgentSession): void {
    this.session = { source, agent, binding, value };
  }

  /** `pane.release_agent`: the source lets go of `agent`; the agent's session ends with it. */
  release(source: string, agent: string): void {
    if (this.claims.get(source)?.agent === agent) this.claims.delete(source);
    if (this.session?.agent === agent) this.session = undefined;
  }

  /** `pane.clear_agent_authority`: one source's claim, or all of them. Seqs stay, so late stale reports are still dropped. */
  clear(source: string | undefined): void {
    if (source === undefined) this.claims.clear();
    else this.claims.delete(source);
  }

  /** The agent left the pane: claims, session and seq records all go. */
  forget(): void {
    this.seqs.clear();
    this.claims.clear();
    this.session = undefined;
  }

  /**
   * The agent left, but a claim (or session) made for what comes next survived: the seq
   * records of every other source go with the agent, so its next run starts afresh.
   */
  forgetOthers(): void {
    const kept = new Set(this.claims.keys());
    if (this.session) kept.add(this.session.source);
    for (const source of this.seqs.keys()) if (!kept.has(source)) this.seqs.delete(source);
  }

  /** Drops claims and the session whose binding no longer holds; true when any went. */
  prune(check: BindingCheck): boolean {
    let dropped = false;
    for (const [source, claim] of this.claims) {
      const verdict = check(claim.binding, claim.agent);
      if (verdict === 'gone') {
        this.claims.delete(source);
        dropped = true;
      } else if (verdict !== 'holds') {
        claim.binding = verdict;
      }
    }
    if (this.session) {
      const verdict = check(this.session.binding, this.session.agent);
      if (verdict === 'gone') {
        this.session = undefined;
        dropped = true;
      } else if (verdict !== 'holds') {
        this.session.binding = verdict;
      }
    }
    return dropped;
  }

  /** The claim in charge: the latest one. */
  /** The claim in charge and the source that made it. */
  get currentWithSource(): { source: string; claim: Claim } | undefined {
    let latest: { source: string; claim: Claim } | undefined;
    for (const [source, claim] of this.claims) if (!latest || claim.order > latest.claim.order) latest = { source, claim };
    return latest;
  }

  get current(): Claim | undefined {
    let latest: Claim | undefined;
    for (const claim of this.claims.values()) if (!latest || claim.order > latest.order) latest = claim;
    return latest;
  }

  get currentSession(): AgentSession | undefined {
    return this.session?.value;
  }

  /** Who reported the session (its report's `source`). */
  get sessionSource(): string | undefined {
    return this.session?.source;
  }

  /** The agent the session was reported for. */
  get sessionAgent(): string | undefined {
    return this.session?.agent;
  }

  /** True when nothing but seq records is left (the agent's claims all went). */
  get unclaimed(): boolean {
    return this.claims.size === 0 && this.session === undefined;
  }
}
