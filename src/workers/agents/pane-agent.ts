/**
 * Agent state for one pane (docs/protocol.md §10): which agent holds the
 * terminal's foreground process group, and which state it is in. Three
 * layers, the first that has something winning: the agent's own hook reports
 * (hook-authority.ts), the program's status sequence (OSC 7501), the screen
 * rules. Process facts come from /proc on a slow tick (and soon after screen
 * changes); the screen is re-read only when it changed and no report is in
 * charge. Only changes are reported.
 */
import { readFileSync } from 'node:fs';
import { readProcStat } from '../../os/proc-stat.js';
import type { AgentName } from '../../protocol/objects.js';
import type { AgentExplanation, AgentPicture, ClearAuthority, HookReport } from '../../protocol/thread.js';
import type { ProgramStatus } from '../signals/program-status.js';
import { StateTracker, agentOfProcess, explainScreen, knownAgent } from './detect.js';
import { type Binding, type BindingCheck, HookAuthority } from './hook-authority.js';

/** How long an agent that left the foreground keeps the pane (its final `idle` must be seen). */
export const AGENT_LINGER_MS = 3000;
/** A status sequence within this long of the last process check is tied to the foreground that check saw. */
const STATUS_PROBE_REUSE_MS = 50;

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The foreground process group of `pid`'s terminal (`tpgid`, field 8 of /proc/<pid>/stat). */
function foregroundGroup(pid: number): number | undefined {
  const tpgid = readProcStat(pid)?.tpgid;
  return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
}

/** Who is in front of a pane's terminal: the group, and the agent it is, if any. */
export interface Foreground {
  pgid: number;
  agent: AgentName | undefined;
}

/** The foreground of the pane whose first process is `pid`. */
export function probeForeground(pid: number): Foreground | undefined {
  const pgid = foregroundGroup(pid);
  if (pgid === undefined) return undefined;
  const comm = readProc(pgid, 'comm')?.trim();
  if (!comm) return { pgid, agent: undefined };
  const argv = (readProc(pgid, 'cmdline') ?? '').split('\0').filter(Boolean);
  return { pgid, agent: agentOfProcess(comm, argv) };
}

export type ForegroundProbe = (pid: number) => Foreground | undefined;

/** A program's status while it lasts: it ends when its group leaves the foreground. */
type HeldStatus = Exclude<ProgramStatus, { state: 'clear' }> & { pgid: number | undefined };

export class PaneAgent {
  private detected: AgentName | undefined;
  private lingerUntil: number | undefined;
  private foregroundPgid: number | undefined;
  private readonly tracker = new StateTracker();
  private readonly hooks = new HookAuthority();
  private status: HeldStatus | undefined;
  private reported: AgentPicture = { state: 'unknown' };
  /** Never yet: the clock's zero is the thread's start, not a time long past. */
  lastProcessCheck = -Infinity;

  constructor(
    private readonly pid: number,
    private readonly probe: ForegroundProbe = probeForeground,
  ) {}

  get current(): AgentName | undefined {
    return this.detected;
  }

  /** The terminal's foreground process group at the last process check (pane_info.foreground_cwd). */
  get foregroundGroup(): number | undefined {
    return this.foregroundPgid;
  }

  /** Looks at the foreground process; true when what decides the pane's state changed (it needs a look). */
  checkProcess(now: number): boolean {
    this.lastProcessCheck = now;
    const front = this.probe(this.pid);
    this.foregroundPgid = front?.pgid;
    const before = this.detected;
    if (front?.agent) {
      this.lingerUntil = undefined;
      this.detected = front.agent;
    } else if (this.detected) {
      this.lingerUntil ??= now + AGENT_LINGER_MS;
      if (now >= this.lingerUntil) {
        this.detected = undefined;
        this.lingerUntil = undefined;
      }
    }
    let changed = before !== this.detected;
    const dropped = this.hooks.prune(this.bindingCheck);
    if (dropped) changed = true;
    // The agent left the pane (or another took it): what its hooks said goes with it, but
    // not a claim already made for the one coming next (docs/protocol.md §10.5).
    if (this.hooks.unclaimed) {
      if (dropped || (before !== undefined && before !== this.detected)) this.hooks.forget();
    } else if (before !== undefined && before !== this.detected) {
      this.hooks.forgetOthers();
    }
    if (this.status && this.status.pgid !== this.foregroundPgid) {
      this.status = undefined;
      changed = true;
    }
    return changed;
  }

  /** A hook report main passed on; true when it was applied (the picture needs a look). */
  hook(report: HookReport, now: number): boolean {
    if (!this.hooks.admit(report.source, report.seq)) return false;
    this.checkProcess(now);
    if (report.kind === 'release') {
      this.hooks.release(report.source, knownAgent(report.agent) ?? report.agent);
      return true;
    }
    const agent = knownAgent(report.agent) ?? report.agent;
    const binding = this.hooks.bindingOf(report.source, agent) ?? this.bindingFor(agent);
    if (!binding) return false;
    if (report.kind === 'report') {
      this.hooks.claim(report.source, {
        agent,
        state: report.state,
        binding,
        ...(report.message ? { message: report.message } : {}),
      });
    }
    const session = report.session;
    if (session && (session.id !== undefined || session.path !== undefined)) this.hooks.recordSession(report.source, agent, binding, session);
    return true;
  }

  clearAuthority(request: ClearAuthority): boolean {
    if (request.source !== undefined && !this.hooks.admit(request.source, request.seq)) return false;
    this.hooks.clear(request.source);
    return true;
  }

  /** An OSC 7501 status from the pane's output; it lasts while the group in front now stays there. */
  programStatus(status: ProgramStatus, now: number): void {
    if (status.state === 'clear') {
      this.status = undefined;
      return;
    }
    // A program may send its status many times a second: a foreground looked up just now still holds.
    // A lookup that saw the pane's own process in front may predate the program now speaking (typed
    // into the shell, it started and reported within the reuse window): stamped with it, the status
    // would be dropped at the next look as "its program left".
    if (now - this.lastProcessCheck >= STATUS_PROBE_REUSE_MS || this.foregroundPgid === this.pid) this.checkProcess(now);
    this.status = { ...status, pgid: this.foregroundPgid };
  }

  /**
   * The picture now; returns it when it changed, and when a held screen
   * state should be looked at again.
   */
  evaluate(screen: () => string, now: number): { picture?: AgentPicture; recheckAt?: number } {
    const { picture, recheckAt } = this.decide(screen, now);
    if (samePicture(picture, this.reported)) return recheckAt === undefined ? {} : { recheckAt };
    this.reported = picture;
    return { picture, ...(recheckAt === undefined ? {} : { recheckAt }) };
  }

  private decide(screen: () => string, now: number): { picture: AgentPicture; recheckAt?: number } {
    const session = this.hooks.currentSession;
    const sessionSource = this.hooks.sessionSource;
    const withSession = (picture: AgentPicture): AgentPicture =>
      session ? { ...picture, session, ...(sessionSource === undefined ? {} : { sessionSource }) } : picture;
    const claim = this.hooks.current;
    if (claim) {
      const { state, message } = claim;
      // A claim's agent is the detected one when bound to it, else its own label (also over an agent still lingering).
      return { picture: withSession({ agent: claim.agent, state, source: 'hook', ...(message ? { message } : {}) }) };
    }
    if (this.status) {
      const { state, message, app } = this.status;
      const agent = this.detected ?? app;
      return { picture: withSession({ ...(agent ? { agent } : {}), state, source: 'status', ...(message ? { message } : {}) }) };
    }
    const { state, recheckAt } = this.tracker.update(this.detected, this.detected ? screen() : '', now);
    // A session reported before its agent was detected already names the pane's agent; its state is not known yet.
    const sessionAgent = this.hooks.sessionAgent;
    // An agent known by its process only has no screen rules: its state is unknown, from no source.
    const picture: AgentPicture = this.detected
      ? withSession({ agent: this.detected, state, ...(state === 'unknown' ? {} : { source: 'screen' as const }) })
      : sessionAgent
        ? withSession({ agent: sessionAgent, state })
        : { state };
    return { picture, ...(recheckAt === undefined ? {} : { recheckAt }) };
  }

  /** The layer in charge of the picture now and its evidence, in the order `decide` consults them. */
  explain(screen: () => string): AgentExplanation {
    const base = {
      ...(this.detected ? { detected: this.detected } : {}),
      ...(this.foregroundPgid === undefined ? {} : { foregroundPgid: this.foregroundPgid }),
      state: this.reported.state,
    };
    const hook = this.hooks.currentWithSource;
    if (hook) {
      const { agent, state, message } = hook.claim;
      return { ...base, decidedBy: 'hook', hook: { source: hook.source, agent, state, ...(message ? { message } : {}) } };
    }
    if (this.status) {
      const { state, app, message } = this.status;
      return { ...base, decidedBy: 'status', status: { state, ...(app ? { app } : {}), ...(message ? { message } : {}) } };
    }
    const rules = this.detected ? explainScreen(this.detected, screen()) : undefined;
    return rules ? { ...base, decidedBy: 'screen', screen: rules } : { ...base, decidedBy: 'nothing' };
  }

  /** The detected agent while it is in front (not one lingering after it left). */
  private get agentInFront(): AgentName | undefined {
    return this.lingerUntil === undefined ? this.detected : undefined;
  }

  /**
   * A new report's binding: the detected agent when it names it; none when it names
   * another agent in front. With no agent in front (none detected yet, or the last one
   * lingering), the group in front, or the next one when that is the pane's shell: a
   * hook may report before the detector has seen its agent.
   */
  private bindingFor(agent: string): Binding | undefined {
    if (this.detected !== undefined && agent === this.detected) return { to: 'agent', agent: this.detected };
    if (this.agentInFront !== undefined) return undefined;
    const front = this.foregroundPgid;
    if (front === undefined) return undefined;
    return front === this.pid ? { to: 'next-group', shellPgid: front } : { to: 'group', pgid: front };
  }

  private readonly bindingCheck: BindingCheck = (binding, agent) => {
    if (binding.to === 'agent') return binding.agent === this.detected ? 'holds' : 'gone';
    const inFront = this.agentInFront;
    // A known agent appeared: a claim that named it is now the detected agent's; any other ends.
    if (inFront !== undefined) return agent === inFront ? { to: 'agent', agent: inFront } : 'gone';
    const front = this.foregroundPgid;
    if (binding.to === 'group') return binding.pgid === front ? 'holds' : 'gone';
    // Made while the shell was in front: it goes with the program the shell starts next.
    if (front === undefined || front === binding.shellPgid) return 'holds';
    return { to: 'group', pgid: front };
  };
}

export function samePicture(a: AgentPicture, b: AgentPicture): boolean {
  return (
    a.agent === b.agent &&
    a.state === b.state &&
    a.source === b.source &&
    a.message === b.message &&
    a.session?.id === b.session?.id &&
    a.session?.path === b.session?.path &&
    a.sessionSource === b.sessionSource
  );
}
