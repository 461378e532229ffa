/**
 * Event rules (docs/protocol.md §13.8): the rules the server holds, what sets each off
 * (an agent's status, a command's exit, output matching in a pane, a cron schedule), and
 * each firing: admitted by its guard (firing-guard.ts), its action run through the
 * server's own socket (rule-actions.ts) one at a time per rule, and told as a `rule.fired`
 * event whatever came of it. Rules are kept with the session (their specs, ids and the
 * pane an output rule watches); their counters start again at a restart.
 */
import { Cron } from 'croner';
import { ProtocolError } from '../../protocol/errors.js';
import type { StreamEvents } from '../../protocol/events.js';
import { type ReadWindow, readWindow } from '../../protocol/read-window.js';
import {
  DEFAULT_LOOP_GUARD,
  DEFAULT_RULE_LIMIT,
  type FiringCause,
  type RuleFired,
  type RuleInfo,
  type RuleSpec,
  type RuleTrigger,
} from '../../protocol/rules.js';
import { nameOf, instanceOf } from '../agents/occupants.js';
import type { EventHub, LoggedEvent } from '../event-hub.js';
import { paneIds, paneStableId, workspaceStableId } from '../ids.js';
import { checkPattern } from '../patterns.js';
import type { PaneRecord, Registry } from '../registry.js';
import { type OutputWatchParts, watchOutput } from '../waits/output-watch.js';
import { FiringGuard } from './firing-guard.js';
import type { LoopbackCaller } from './loopback-caller.js';
import { type ActionResult, runAction } from './rule-actions.js';

/** A rule as the session file keeps it. */
export interface SavedRule {
  id: string;
  spec: RuleSpec;
  createdAt: number;
  /** An output rule: the pane it watches (or last watched). */
  paneUid?: number | undefined;
}

interface RuleRecord extends SavedRule {
  readonly limit: { max: number; per_s: number };
  readonly loopGuard: number;
  firings: number;
  fired: number;
  skipped: number;
  failed: number;
  lastFiredAt: number | undefined;
  schedule: Cron | undefined;
  stopWatching: (() => void) | undefined;
  /** The rule's actions run one after another, in firing order. */
  chain: Promise<void>;
}

/** A server holds at most this many rules: a client's loop adding rules cannot grow it without end. */
export const MAX_RULES = 1000;

export interface RuleParts extends OutputWatchParts {
  registry: Registry;
  events: EventHub;
}

export class RuleBook {
  private readonly rules = new Map<string, RuleRecord>();
  private readonly guard = new FiringGuard();
  private nextId = 1;
  /** Set once the server listens: before that nothing fires. */
  private caller: LoopbackCaller | undefined;

  constructor(private readonly parts: RuleParts) {
    parts.events.listen((event) => this.heard(event));
  }

  /** Checks the spec against what the server has (schedule, zone, pattern, name, the watched pane) and adds it. */
  add(spec: RuleSpec): RuleRecord {
    if (this.rules.size >= MAX_RULES) throw new ProtocolError('invalid_rule', `this server holds ${MAX_RULES} rules already: remove some first`);
    if (spec.name !== undefined && this.byName(spec.name)) throw new ProtocolError('invalid_rule', `a rule is already named ${spec.name}`);
    const paneUid = spec.trigger.type === 'output_matched' ? this.outputPane(spec.trigger)?.uid : undefined;
    // The id is taken once the rule checks out: a refused one uses none.
    const rule = this.enter({ id: `r${this.nextId}`, spec, createdAt: Date.now(), paneUid });
    this.nextId++;
    return rule;
  }

  list(): RuleRecord[] {
    return [...this.rules.values()];
  }

  /** By id or name. */
  remove(target: string): RuleRecord {
    const rule = this.rules.get(target) ?? this.byName(target);
    if (!rule) throw new ProtocolError('rule_not_found', `no rule ${target}`);
    this.rules.delete(rule.id);
    rule.schedule?.stop();
    rule.stopWatching?.();
    this.guard.forgetRule(rule.id);
    return rule;
  }

  info(rule: RuleRecord): RuleInfo {
    const next = rule.schedule?.nextRun();
    return {
      rule_id: rule.id,
      ...(rule.spec.name === undefined ? {} : { name: rule.spec.name }),
      trigger: rule.spec.trigger,
      action: rule.spec.action,
      limit: rule.limit,
      loop_guard: rule.loopGuard,
      created_at: rule.createdAt,
      fired: rule.fired,
      skipped: rule.skipped,
      failed: rule.failed,
      ...(rule.lastFiredAt === undefined ? {} : { last_fired_at: rule.lastFiredAt }),
      ...(next ? { next_run_at: next.getTime() } : {}),
      ...(rule.spec.trigger.type === 'output_matched' ? { watching: rule.stopWatching !== undefined } : {}),
    };
  }

  saved(): { rules: SavedRule[]; nextRuleId: number } {
    return { rules: this.list().map(({ id, spec, createdAt, paneUid }) => ({ id, spec, createdAt, paneUid })), nextRuleId: this.nextId };
  }

  /** The rules of a saved session, after its panes: a rule that no longer checks out is left out, said in the log. */
  restore(saved: { rules?: SavedRule[] | undefined; nextRuleId?: number | undefined }): void {
    this.nextId = Math.max(this.nextId, saved.nextRuleId ?? 1);
    for (const rule of saved.rules ?? []) {
      try {
        this.enter(rule);
      } catch (error) {
        console.error(`herdr: rule ${rule.id} was not restored: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** The server listens: schedules run and events fire rules from here. */
  start(caller: LoopbackCaller): void {
    this.caller = caller;
    for (const rule of this.rules.values()) rule.schedule?.resume();
  }

  stop(): void {
    this.caller?.close();
    this.caller = undefined;
    for (const rule of this.rules.values()) {
      rule.schedule?.stop();
      rule.stopWatching?.();
    }
  }

  private enter(saved: SavedRule): RuleRecord {
    const { spec } = saved;
    const rule: RuleRecord = {
      ...saved,
      limit: spec.limit ?? DEFAULT_RULE_LIMIT,
      loopGuard: spec.loop_guard ?? DEFAULT_LOOP_GUARD,
      firings: 0,
      fired: 0,
      skipped: 0,
      failed: 0,
      lastFiredAt: undefined,
      schedule: undefined,
      stopWatching: undefined,
      chain: Promise.resolve(),
    };
    if (spec.trigger.type === 'schedule') rule.schedule = this.schedule(rule, spec.trigger);
    if (spec.trigger.type === 'output_matched') {
      checkPattern(spec.trigger.match);
      const pane = saved.paneUid === undefined ? undefined : this.parts.registry.paneByUid(saved.paneUid);
      // A restored agent's pane: only once its agent is back (follow), so a shell left in its place is not watched for it.
      if (pane && (spec.trigger.agent === undefined || (pane.occupant.agent !== undefined && namesAgent(pane, spec.trigger.agent)))) this.watch(rule, pane, spec.trigger);
    }
    this.rules.set(rule.id, rule);
    return rule;
  }

  private schedule(rule: RuleRecord, trigger: Extract<RuleTrigger, { type: 'schedule' }>): Cron {
    if (trigger.timezone !== undefined) {
      try {
        new Intl.DateTimeFormat('en', { timeZone: trigger.timezone });
      } catch {
        throw new ProtocolError('invalid_rule', `no time zone ${trigger.timezone} (an IANA name such as Europe/Berlin)`);
      }
    }
    try {
      return new Cron(
        trigger.cron,
        { paused: this.caller === undefined, timezone: trigger.timezone, mode: '5-or-6-parts', protect: true },
        () => this.fire(rule, { type: 'schedule' }, undefined),
      );
    } catch (error) {
      throw new ProtocolError('invalid_rule', `the schedule ${trigger.cron} does not parse: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * An output rule's pane now: the pane it names (which must be there), or its agent's (which may
   * come later: the rule watches the agent's pane from when it shows up).
   */
  private outputPane(trigger: Extract<RuleTrigger, { type: 'output_matched' }>): PaneRecord | undefined {
    const { registry } = this.parts;
    if ((trigger.pane_id === undefined) === (trigger.agent === undefined)) throw new ProtocolError('invalid_rule', 'an output rule names its pane_id or its agent, one of the two');
    if (trigger.agent !== undefined) return findAgentPane(registry, trigger.agent);
    try {
      return registry.resolvePane(trigger.pane_id as string);
    } catch {
      throw new ProtocolError('invalid_rule', `no pane ${trigger.pane_id} to watch`);
    }
  }

  /** An agent showed up in `pane`: the output rules that name it and watch nothing watch its pane. */
  private follow(pane: PaneRecord): void {
    for (const rule of this.rules.values()) {
      const { trigger } = rule.spec;
      if (trigger.type !== 'output_matched' || trigger.agent === undefined || rule.stopWatching || !namesAgent(pane, trigger.agent)) continue;
      rule.paneUid = pane.uid;
      this.watch(rule, pane, trigger);
    }
  }

  private watch(rule: RuleRecord, pane: PaneRecord, trigger: Extract<RuleTrigger, { type: 'output_matched' }>): void {
    const window: ReadWindow = readWindow({ source: trigger.source ?? 'recent', lines: trigger.lines ?? 50 });
    rule.stopWatching = watchOutput(this.parts, pane, window, trigger.match, {
      matched: (result) => this.fire(rule, { ...causeOf(pane, 'output_matched'), matched_line: result.matched_line }, pane.uid),
      gone: () => {
        rule.stopWatching = undefined;
      },
    });
  }

  private heard(event: LoggedEvent): void {
    if (this.rules.size === 0) return;
    const name = event.line.event;
    if (name === 'pane_closed' && event.meta.paneUid !== undefined) this.guard.forgetPane(event.meta.paneUid);
    if (name !== 'pane.agent_status_changed' && name !== 'pane.command_finished' && name !== 'pane_agent_detected') return;
    const pane = event.meta.paneUid === undefined ? undefined : this.parts.registry.paneByUid(event.meta.paneUid);
    if (!pane) return;
    // Watching needs no socket: agents restored before the server listens are followed too.
    if (name === 'pane_agent_detected') return this.follow(pane);
    if (!this.caller) return;
    for (const rule of this.rules.values()) {
      const { trigger } = rule.spec;
      if (name === 'pane.agent_status_changed' && trigger.type === 'agent_status') {
        const { agent_status: status } = event.line.data as StreamEvents['pane.agent_status_changed'];
        if (status === trigger.status && this.agentMatches(pane, trigger)) this.fire(rule, { ...causeOf(pane, 'agent_status'), agent_status: status }, pane.uid);
      } else if (name === 'pane.command_finished' && trigger.type === 'command_finished') {
        const { exit_code: code } = event.line.data as StreamEvents['pane.command_finished'];
        if (exitMatches(trigger.exit ?? 'any', code) && this.paneMatches(pane, trigger)) this.fire(rule, { ...causeOf(pane, 'command_finished'), exit_code: code }, pane.uid);
      }
    }
  }

  private agentMatches(pane: PaneRecord, trigger: Extract<RuleTrigger, { type: 'agent_status' }>): boolean {
    if (trigger.kind !== undefined && pane.occupant.agent !== trigger.kind) return false;
    if (trigger.agent !== undefined && !namesAgent(pane, trigger.agent)) return false;
    return this.inWorkspace(pane, trigger.workspace_id);
  }

  private paneMatches(pane: PaneRecord, trigger: Extract<RuleTrigger, { type: 'command_finished' }>): boolean {
    if (trigger.pane_id !== undefined && this.paneOf(trigger.pane_id) !== pane) return false;
    return this.inWorkspace(pane, trigger.workspace_id);
  }

  private inWorkspace(pane: PaneRecord, id: string | undefined): boolean {
    if (id === undefined) return true;
    try {
      return this.parts.registry.resolveWorkspace(id) === pane.workspace;
    } catch {
      return false;
    }
  }

  /** One firing: admitted or skipped by the guard, then its action after the rule's earlier ones. */
  private fire(rule: RuleRecord, cause: FiringCause, causePane: number | undefined): void {
    const caller = this.caller;
    if (!caller || this.rules.get(rule.id) !== rule) return;
    const number = ++rule.firings;
    const at = Date.now();
    const refused = this.guard.admit(rule, causePane, at);
    if (refused) return this.told(rule, number, cause, { outcome: 'skipped', reason: refused });
    rule.lastFiredAt = at;
    rule.chain = rule.chain.then(async () => {
      const result = await runAction(caller, rule.spec.action, { ruleId: rule.id, number, cause, at });
      if (result.outcome === 'done') {
        const target = this.paneOf(result.targetPaneId);
        if (target) this.guard.reached(rule.id, causePane, target.uid, Date.now());
      }
      this.told(rule, number, cause, result);
    });
  }

  /** The pane an id names now, if any. */
  private paneOf(id: string): PaneRecord | undefined {
    try {
      return this.parts.registry.resolvePane(id);
    } catch {
      return undefined;
    }
  }

  private told(rule: RuleRecord, number: number, cause: FiringCause, result: ActionResult): void {
    if (result.outcome === 'done') rule.fired++;
    else if (result.outcome === 'skipped') rule.skipped++;
    else rule.failed++;
    const data: RuleFired = {
      rule_id: rule.id,
      ...(rule.spec.name === undefined ? {} : { name: rule.spec.name }),
      firing: number,
      cause,
      action: rule.spec.action.type,
      outcome: result.outcome,
      ...(result.outcome === 'done'
        ? { target_pane_id: result.targetPaneId, agent_instance_id: result.agentInstanceId, ...(result.turnId === undefined ? {} : { turn_id: result.turnId }) }
        : { reason: result.reason }),
    };
    this.parts.events.publish({ event: 'rule.fired', data });
  }

  private byName(name: string): RuleRecord | undefined {
    for (const rule of this.rules.values()) if (rule.spec.name === name) return rule;
    return undefined;
  }
}

/** What a pane event tells a firing: the pane by its stable id, its agent by name or kind. */
function causeOf(pane: PaneRecord, type: FiringCause['type']): FiringCause {
  const agent = nameOf(pane) ?? pane.occupant.agent;
  return { type, pane_id: paneStableId(pane.workspace.uid, pane.stableNumber), workspace_id: workspaceStableId(pane.workspace.uid), ...(agent === undefined ? {} : { agent }) };
}

function namesAgent(pane: PaneRecord, target: string): boolean {
  const ids = paneIds(pane);
  return nameOf(pane) === target || instanceOf(pane) === target || ids.pane_id === target || ids.stable_id === target;
}

function findAgentPane(registry: Registry, target: string): PaneRecord | undefined {
  return registry.workspaces.flatMap((workspace) => workspace.panes).find((pane) => pane.occupant.agent !== undefined && namesAgent(pane, target));
}

function exitMatches(exit: 'any' | 'failed' | 'succeeded' | number, code: number): boolean {
  if (exit === 'any') return true;
  if (exit === 'failed') return code !== 0;
  if (exit === 'succeeded') return code === 0;
  return code === exit;
}
