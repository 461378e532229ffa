/**
 * Agent state for one pane (docs/protocol.md §10): which agent holds the
 * terminal's foreground process group, and which state it is in. Three
 * layers, the first that has something winning: the agent's own hook reports
 * (hook-authority.ts), the program's status sequence (OSC 7501), the screen
 * rules. Process facts come from /proc on a slow tick (and soon after screen
 * changes); the screen is re-read only when it changed and no report is in
 * charge. Only changes are reported.
 */
import { coreShare, parseProcStat, procStatName, readProcStat, readProcText } from '../../os/proc-stat.js';
import type { AgentExplanation, AgentPicture, ClearAuthority, HookReport } from '../../protocol/thread.js';
import type { ProgramStatus } from '../signals/program-status.js';
import { findMenu } from '../../protocol/menu.js';
import { ScreenMemo, StateTracker, agentOfProcess, explainScreen, hasScreenRules, knownAgent, readyOnStatusOf, readySettleOf, screenState } from './detect.js';
import { type Binding, type BindingCheck, HookAuthority } from './hook-authority.js';

/** How long an agent that left the foreground keeps the pane (its final `idle` must be seen). */
export const AGENT_LINGER_MS = 3000;
/** A status sequence within this long of the last process check is tied to the foreground that check saw. */
const STATUS_PROBE_REUSE_MS = 50;
/**
 * A hook or status that says `blocked` before its menu is on the screen (codex reports it
 * 1.1 s before it draws its approval) is reported once the menu shows, or after this long
 * without one (a question that is not a menu: a text field, "press Enter").
 */
export const BLOCKED_MENU_GRACE_MS = 1500;
/** A hook or status saying idle waits this long at most for the screen to stop showing work. */
export const STATUS_SCREEN_AGREE_MS = 3000;
/**
 * While an agent's first idle waits for its status (readySettle), its program is looked at this
 * often; asleep at two looks in a row, using under READY_QUIET_CPU_SHARE of a core between them,
 * it has finished starting and reads keys, status or not (a version that reports none).
 */
const READY_QUIET_LOOK_MS = 300;
const READY_QUIET_CPU_SHARE = 0.05;

/** The detected agent's first idle, held until it settled (readySettle). */
interface Settling {
  agent: string | undefined;
  idleSince: number | undefined;
  ready: boolean;
  /** It was seen working or blocked: past its start. */
  worked: boolean;
  /** The program in front at the last look while waiting for its status (programAsleep). */
  lastLook: { at: number; ticks: number; asleep: boolean } | undefined;
}

/** What the agent layer looks at in a pane, read only when needed. */
export interface PaneLook {
  /** The visible screen as plain text. */
  screen(): string;
  /** The window title its program set. */
  title(): string;
  /** Whether its program reads keys (the terminal out of canonical mode); undefined when that cannot be read. */
  readsKeys(): boolean | undefined;
}

function readProc(pid: number, file: string): string | undefined {
  return readProcText(`/proc/${pid}/${file}`, 'utf8');
}

/** Who is in front of a pane's terminal: the group, and the agent it is, if any. */
export interface Foreground {
  pgid: number;
  agent: string | undefined;
}

/** A foreground's agent is read again at least this often even when its name stayed (an exec that kept it). */
const FRONT_REREAD_MS = 10_000;

/**
 * The foreground of the pane whose first process is `pid`, read from /proc on every process
 * check (agent-checks.ts says how often). What the group runs changes only by a new group or an
 * exec, and an exec changes the name in its stat: so the group's command line is read again
 * only then (or after FRONT_REREAD_MS), and a shell at its prompt costs one read of its own
 * stat (its name is in it). Idle panes spent three reads a second each: 2.8% of a core for
 * 100 idle shells on one shard (ARCHITECTURE.md, "What an idle pane costs").
 */
export function foregroundProbe(pid: number, now: () => number = Date.now): ForegroundProbe {
  let last: { pgid: number; name: string; agent: string | undefined; at: number } | undefined;
  return () => {
    const stat = readProcText(`/proc/${pid}/stat`);
    if (stat === undefined) return undefined;
    const tpgid = parseProcStat(stat).tpgid;
    if (!(tpgid > 0)) return undefined;
    const name = tpgid === pid ? procStatName(stat) : readProc(tpgid, 'comm')?.trim();
    if (!name) return { pgid: tpgid, agent: undefined };
    const at = now();
    if (last && last.pgid === tpgid && last.name === name && at - last.at < FRONT_REREAD_MS) return { pgid: tpgid, agent: last.agent };
    const argv = (readProc(tpgid, 'cmdline') ?? '').split('\0').filter(Boolean);
    last = { pgid: tpgid, name, agent: agentOfProcess(name, argv), at };
    return { pgid: tpgid, agent: last.agent };
  };
}

export type ForegroundProbe = (pid: number) => Foreground | undefined;

/** A program's status while it lasts: it ends when its group leaves the foreground. */
type HeldStatus = Exclude<ProgramStatus, { state: 'clear' }> & { pgid: number | undefined; at: number };

/** A seq between these is a nanosecond clock since the epoch (2017–2096): it tells when its event happened. */
const NS_CLOCK_SEQS = [1_500_000_000_000_000_000n, 4_000_000_000_000_000_000n] as const;

/** When a hook's event happened (ms since the epoch): its seq when that is a nanosecond clock, else now. */
function eventTime(seq: bigint | undefined): number {
  return seq !== undefined && seq >= NS_CLOCK_SEQS[0] && seq < NS_CLOCK_SEQS[1] ? Number(seq / 1_000_000n) : Date.now();
}

/** A hook's `working` that the screen has contradicted with its idle prompt this long is stale (an interrupt no hook told). */
export const STALE_HOOK_WORK_MS = 2000;

export class PaneAgent {
  private detected: string | undefined;
  private lingerUntil: number | undefined;
  private foregroundPgid: number | undefined;
  /** The screen's last reading by the rules, shared by every read of one look and kept for the next. */
  private readonly screens = new ScreenMemo();
  private readonly tracker = new StateTracker(this.screens);
  private readonly hooks = new HookAuthority();
  private status: HeldStatus | undefined;
  private reported: AgentPicture = { state: 'unknown' };
  /** Why the last picture is not what its layer says alone (a held state, a blocked waiting for its menu). */
  private held: string | undefined;
  /** When a reported `blocked` without a menu on the screen began (BLOCKED_MENU_GRACE_MS). */
  private blockedWithoutMenuSince: number | undefined;
  /** Since when a hook's working has met a screen the rules read idle (staleHookWork). */
  private hookWorkIdleSince: number | undefined;
  /** When a hook or status first said idle while the screen still showed work (screenAgrees). */
  private reportIdleSince: number | undefined;
  /** Since when (ms since the epoch, as report times are) the screen rules have read work (screenAgrees). */
  private screenWorkSince: number | undefined;
  private settling: Settling = { agent: undefined, idleSince: undefined, ready: false, worked: false, lastLook: undefined };
  /** Never yet: the clock's zero is the thread's start, not a time long past. */
  lastProcessCheck = -Infinity;
  /** Called when a process check finds another group in front (its directory is pane_info.foreground_cwd). */
  onForegroundChanged: (() => void) | undefined;

  constructor(
    private readonly pid: number,
    private readonly probe: ForegroundProbe = foregroundProbe(pid),
  ) {}

  get current(): string | undefined {
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
    if (front?.pgid !== this.foregroundPgid) {
      this.foregroundPgid = front?.pgid;
      this.onForegroundChanged?.();
    }
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
        at: eventTime(report.seq),
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
    // `at` is when it began saying this: a program repeating its status is not saying something new.
    const same = this.status !== undefined && this.status.state === status.state && this.status.pgid === this.foregroundPgid;
    this.status = { ...status, pgid: this.foregroundPgid, at: same && this.status ? this.status.at : Date.now() };
  }

  /**
   * The picture now; returns it when it changed, and when a held screen
   * state should be looked at again.
   */
  evaluate(look: PaneLook, now: number): { picture?: AgentPicture; recheckAt?: number } {
    const decided = this.decide(look, now);
    const reconciled = this.staleHookWork(this.screenAgrees(decided, look, now), look, now);
    const { picture, recheckAt } = this.readySettle(this.menuGate(this.screenDialog(reconciled, look), look, now), now);
    if (samePicture(picture, this.reported)) return recheckAt === undefined ? {} : { recheckAt };
    this.reported = picture;
    return { picture, ...(recheckAt === undefined ? {} : { recheckAt }) };
  }

  /**
   * A `blocked` from a hook or a status of a known CLI is shown once its menu is drawn: until then
   * (at most BLOCKED_MENU_GRACE_MS) the pane keeps the state it had, so that the inbox never lists
   * a question whose options are not on the screen yet.
   */
  private menuGate(decided: Decided, look: PaneLook, now: number): Decided {
    const { picture } = decided;
    // Only the way into blocked waits: a menu once shown was the real one. Only for a CLI whose screens are
    // known (its rules): an agent of its own making may ask in words no menu parser reads.
    const known = this.detected !== undefined && hasScreenRules(this.detected);
    if (!known || picture.state !== 'blocked' || picture.source === 'screen' || this.reported.state === 'blocked') {
      this.blockedWithoutMenuSince = undefined;
      return decided;
    }
    if (findMenu(look.screen().split('\n'))) {
      this.blockedWithoutMenuSince = undefined;
      return decided;
    }
    const since = (this.blockedWithoutMenuSince ??= now);
    if (now - since >= BLOCKED_MENU_GRACE_MS) return decided;
    this.held = `its ${picture.source ?? 'report'} says blocked; waiting up to ${BLOCKED_MENU_GRACE_MS} ms for its menu to be drawn`;
    return { picture: { ...picture, state: this.reported.state }, recheckAt: earliest(decided.recheckAt, since + BLOCKED_MENU_GRACE_MS) };
  }

  /**
   * A dialog on the screen that a program's report does not tell (codex's "Task is still running"
   * at Ctrl-C, its hooks to review): when the screen rules read blocked and a menu is drawn, the
   * pane is blocked whatever the hook or status says of working or idle.
   */
  private screenDialog(decided: Decided, look: PaneLook): Decided {
    const { picture } = decided;
    if (picture.source === 'screen' || (picture.state !== 'working' && picture.state !== 'idle')) return decided;
    const agent = this.detected;
    if (agent === undefined || !hasScreenRules(agent)) return decided;
    const text = look.screen();
    if (screenState(agent, text, look.title(), this.screens) !== 'blocked' || !findMenu(text.split('\n'))) return decided;
    this.held = `its ${picture.source ?? 'report'} says ${picture.state}, but its screen shows a dialog the rules read as blocked`;
    return { ...decided, picture: { ...picture, state: 'blocked', source: 'screen', message: undefined } };
  }

  /**
   * A turn ends when its answer is on the screen: a hook or status that says idle while the
   * screen rules still read work (claude reports `done` before its last frame, and between a
   * tool's end and its next model request) keeps the pane working until the screen agrees, or
   * for STATUS_SCREEN_AGREE_MS at most. Work the screen began after that report is believed
   * until the agent reports again: a CLI starved of CPU in a busy fleet draws its spinner
   * seconds before it tells its status (Claude Code, 20 agents on 2 cores).
   */
  private screenAgrees(decided: Decided, look: PaneLook, now: number): Decided {
    const { picture } = decided;
    const agent = this.detected;
    const screenWorks = agent !== undefined && hasScreenRules(agent) && picture.source !== 'screen' && screenState(agent, look.screen(), look.title(), this.screens) === 'working';
    if (!screenWorks) this.screenWorkSince = undefined;
    else this.screenWorkSince ??= Date.now();
    if (!screenWorks || picture.state !== 'idle') {
      this.reportIdleSince = undefined;
      return decided;
    }
    const reportedAt = this.reportTime();
    if (this.screenWorkSince !== undefined && reportedAt !== undefined && this.screenWorkSince > reportedAt) {
      this.held = `its ${picture.source ?? 'report'} says idle, but its screen began to show work after that report`;
      return { ...decided, picture: { ...picture, state: 'working' } };
    }
    const since = (this.reportIdleSince ??= now);
    if (now - since >= STATUS_SCREEN_AGREE_MS) return decided;
    this.held = `its ${picture.source ?? 'report'} says idle, but its screen still shows work (up to ${STATUS_SCREEN_AGREE_MS} ms)`;
    return { picture: { ...picture, state: 'working' }, recheckAt: earliest(decided.recheckAt, since + STATUS_SCREEN_AGREE_MS) };
  }

  /** When the report in charge was made (ms since the epoch): the program's status, else its hook's claim. */
  private reportTime(): number | undefined {
    const claim = this.hooks.current;
    if (claim && !(this.status && this.status.at > claim.at && this.status.state !== claim.state)) return claim.at;
    return this.status?.at;
  }

  /**
   * A hook's `working` while the screen rules read the CLI's idle prompt, for STALE_HOOK_WORK_MS:
   * a turn interrupted with no hook for it (gemini fires no AfterAgent on Esc). Idle then.
   */
  private staleHookWork(decided: Decided, look: PaneLook, now: number): Decided {
    const { picture } = decided;
    const agent = this.detected;
    // A program whose own status still says it works is believed (codex hides its working row while it streams).
    const statusWorks = this.status !== undefined && this.status.state !== 'idle';
    if (picture.source !== 'hook' || picture.state !== 'working' || statusWorks || agent === undefined || !hasScreenRules(agent) || screenState(agent, look.screen(), look.title(), this.screens) !== 'idle') {
      this.hookWorkIdleSince = undefined;
      return decided;
    }
    const since = (this.hookWorkIdleSince ??= now);
    if (now - since >= STALE_HOOK_WORK_MS) {
      this.held = `its hook says working, but its screen has shown its idle prompt for ${STALE_HOOK_WORK_MS} ms (a turn ended with no hook for it)`;
      return { ...decided, picture: { ...picture, state: 'idle' } };
    }
    return { ...decided, recheckAt: earliest(decided.recheckAt, since + STALE_HOOK_WORK_MS) };
  }

  /**
   * The first idle of an agent whose table asks for it counts once it held `readySettleMs`
   * (codex: a prompt is not written into the working → idle flick it makes while it finishes
   * starting) and once the program reported its own status or went quiet on the CPU,
   * `readyOnStatusMs` at most (Claude Code reads keys from then on). Once reported idle, the agent is ready for good.
   */
  private readySettle(decided: Decided, now: number): Decided {
    const agent = this.detected;
    if (agent !== this.settling.agent) this.settling = { agent, idleSince: undefined, ready: false, worked: false, lastLook: undefined };
    if (decided.picture.state === 'working' || decided.picture.state === 'blocked') this.settling.worked = true;
    const settle = agent === undefined ? undefined : readySettleOf(agent);
    // An agent that already worked or asked is past its start: its status is not waited for.
    const statusWait = agent === undefined || this.status !== undefined || this.settling.worked ? undefined : readyOnStatusOf(agent);
    if ((settle === undefined && statusWait === undefined) || this.settling.ready) return decided;
    if (decided.picture.state !== 'idle') {
      this.settling.idleSince = undefined;
      return decided;
    }
    const since = (this.settling.idleSince ??= now);
    const settled = since + (settle ?? 0);
    const statusWaitOver = statusWait === undefined || now >= since + statusWait || this.programAsleep(now);
    if (now >= settled && statusWaitOver) {
      this.settling.ready = true;
      return decided;
    }
    this.held = statusWaitOver
      ? `its first idle counts once it held ${settle} ms (it may still be finishing its start)`
      : `its prompt is drawn, but it reads keys once it reports its status or goes quiet (up to ${statusWait} ms)`;
    const recheck = statusWaitOver ? settled : Math.max(settled, Math.min(now + READY_QUIET_LOOK_MS, since + (statusWait ?? 0)));
    return { picture: { ...decided.picture, state: 'unknown' }, recheckAt: earliest(decided.recheckAt, recheck) };
  }

  /**
   * Whether the program in front has been asleep, and next to idle on the CPU, since the last
   * look (READY_QUIET_*): a starved CLI is runnable, or busy, until it finished starting.
   */
  private programAsleep(now: number): boolean {
    const last = this.settling.lastLook;
    // Screens change every few ms while it starts: /proc is read once a look interval, not per frame.
    if (last !== undefined && now - last.at < READY_QUIET_LOOK_MS) return false;
    const stat = this.foregroundPgid === undefined ? undefined : readProcStat(this.foregroundPgid);
    if (stat === undefined) return false;
    const look = { at: now, ticks: stat.utimeTicks + stat.stimeTicks, asleep: stat.state !== 'R' };
    this.settling.lastLook = look;
    if (last === undefined || !last.asleep || !look.asleep) return false;
    return coreShare(look.ticks - last.ticks, now - last.at) < READY_QUIET_CPU_SHARE;
  }

  private decide(look: PaneLook, now: number): { picture: AgentPicture; recheckAt?: number } {
    this.held = undefined;
    const session = this.hooks.currentSession;
    const sessionSource = this.hooks.sessionSource;
    const withSession = (picture: AgentPicture): AgentPicture =>
      session ? { ...picture, session, ...(sessionSource === undefined ? {} : { sessionSource }) } : picture;
    const claim = this.hooks.current;
    // The program's own status, when newer than its hook's last report, tells what the hooks did not
    // (Claude Code fires no hook when a turn is interrupted; its status says idle).
    if (claim && !(this.status && this.status.at > claim.at && this.status.state !== claim.state)) {
      const { state, message } = claim;
      // A claim's agent is the detected one when bound to it, else its own label (also over an agent still lingering).
      return { picture: withSession({ agent: claim.agent, state, source: 'hook', ...(message ? { message } : {}) }) };
    }
    if (this.status) {
      const { state, message, app } = this.status;
      const agent = this.detected ?? app;
      return { picture: withSession({ ...(agent ? { agent } : {}), state, source: 'status', ...(message ? { message } : {}) }) };
    }
    const view = this.detected ? { text: look.screen(), title: look.title(), readsKeys: () => look.readsKeys() } : { text: '', title: '', readsKeys: () => undefined };
    const { state, recheckAt, held } = this.tracker.update(this.detected, view, now);
    this.held = held;
    // A session reported before its agent was detected already names the pane's agent; its state is not known yet.
    const sessionAgent = this.hooks.sessionAgent;
    // An agent known by its process only has no screen rules: its state is unknown, from no source.
    // One whose rules saw nothing they know yet is unknown from its screen (not ready).
    const ruled = this.detected !== undefined && hasScreenRules(this.detected);
    const picture: AgentPicture = this.detected
      ? withSession({ agent: this.detected, state, ...(state === 'unknown' && !ruled ? {} : { source: 'screen' as const }) })
      : sessionAgent
        ? withSession({ agent: sessionAgent, state })
        : { state };
    return { picture, ...(recheckAt === undefined ? {} : { recheckAt }) };
  }

  /** The layer in charge of the picture now and its evidence, in the order `decide` consults them. */
  explain(look: PaneLook): AgentExplanation {
    const base = {
      ...(this.detected ? { detected: this.detected } : {}),
      ...(this.foregroundPgid === undefined ? {} : { foregroundPgid: this.foregroundPgid }),
      state: this.reported.state,
      ...(this.held === undefined ? {} : { held: this.held }),
    };
    const hook = this.hooks.currentWithSource;
    const statusNewer = hook !== undefined && this.status !== undefined && this.status.at > hook.claim.at && this.status.state !== hook.claim.state;
    if (hook && !statusNewer) {
      const { agent, state, message } = hook.claim;
      return { ...base, decidedBy: 'hook', hook: { source: hook.source, agent, state, ...(message ? { message } : {}) } };
    }
    if (this.status) {
      const { state, app, message } = this.status;
      return { ...base, decidedBy: 'status', status: { state, ...(app ? { app } : {}), ...(message ? { message } : {}) } };
    }
    const rules = this.detected ? explainScreen(this.detected, look.screen(), look.title()) : undefined;
    return rules ? { ...base, decidedBy: 'screen', screen: rules } : { ...base, decidedBy: 'nothing' };
  }

  /** Whether the detected agent left the foreground and only lingers (its pane's shell may be in front). */
  get lingering(): boolean {
    return this.lingerUntil !== undefined;
  }

  /** When the linger ends and the agent counts as gone, if it is lingering. */
  get lingerEndsAt(): number | undefined {
    return this.lingerUntil;
  }

  /** The detected agent while it is in front (not one lingering after it left). */
  private get agentInFront(): string | undefined {
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

/** A picture as decided, and when to look again (a held state's end). */
interface Decided {
  picture: AgentPicture;
  recheckAt?: number;
}

function earliest(a: number | undefined, b: number): number {
  return a === undefined ? b : Math.min(a, b);
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
