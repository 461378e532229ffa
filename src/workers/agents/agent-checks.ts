/**
 * When a pane's agent is looked for and its state re-read (docs/protocol.md §10.3): the
 * foreground process on a slow tick and on screen changes (at most every
 * PROCESS_CHECK_AFTER_MS; a change inside that window gets its check at the
 * window's end, so a short-lived agent is not missed), the screen on every
 * change while an agent is there, and a held state (claude's) again when its
 * hold ends. Only changes are reported, and no faster than report-throttle.ts
 * lets them (a program may flip its status a million times a second).
 */
import { QUIET_BEAT_MS } from '../../protocol/quiet-beat.js';
import type { AgentExplanation, AgentPicture, ClearAuthority, HookReport } from '../../protocol/thread.js';
import type { Clock, Timer } from '../clock.js';
import { ReportThrottle } from '../report-throttle.js';
import type { ProgramStatus } from '../signals/program-status.js';
import { readsRawInput } from './detect.js';
import { PaneAgent, type PaneLook, samePicture } from './pane-agent.js';

/** A screen change re-checks the foreground process when the last check is older than this. */
export const PROCESS_CHECK_AFTER_MS = 250;
/** The slow tick for process changes without screen changes (an agent leaving). */
export const PROCESS_TICK_MS = 1000;
/**
 * The tick while every pane is quiet (QUIET_PROCESS_CHECK_MS): a shard of idle panes woke every
 * second to find nothing due (ARCHITECTURE.md, "What an idle pane costs"). A screen change
 * brings the one-second tick back (`wantsQuickTick`); a linger's end has a timer of its own.
 */
export const QUIET_TICK_MS = QUIET_BEAT_MS;
/**
 * A pane whose screen has not changed since its last process check, with no agent leaving it,
 * is checked on the tick only this often. Who is in front changes with output nearly always
 * (a command typed is echoed, one that ends brings the prompt back, an agent draws at once),
 * and output gets its own check within PROCESS_CHECK_AFTER_MS; the tick is the backstop for
 * the rest (a program taking the terminal silently). An idle fleet's checks were most of its
 * cost, at every 15 s still most of what a quiet shard did (ARCHITECTURE.md, "What an idle
 * pane costs").
 */
export const QUIET_PROCESS_CHECK_MS = 60_000;

export interface CheckedPane extends PaneLook {
  readonly pid: number;
  readonly ended: boolean;
}

export class AgentChecks {
  private processCheck: Timer | undefined;
  private recheck: Timer | undefined;
  /**
   * The end of a linger, on time whichever check began it: a hook report or a program's status
   * can start one between ticks, and the quiet tick would have seen its end up to
   * QUIET_TICK_MS late.
   */
  private lingerEnd: Timer | undefined;
  private readonly reports: ReportThrottle<AgentPicture>;
  /**
   * How many times the state turned working or blocked: a prompt's submission sees its agent take
   * it, and its turn start, by one more (prompt-submission.ts). A move to idle or unknown is not
   * work (opencode redraws its idle box while it opens the session of its first prompt).
   */
  private busy = 0;
  private lastState: AgentPicture['state'] = 'unknown';
  /** When the screen last changed (a look the scheduler gave it). */
  private screenChangedAt = -Infinity;
  /** Called after every evaluation (a prompt being submitted looks again). */
  onEvaluated: (() => void) | undefined;

  constructor(
    private readonly pane: CheckedPane,
    report: (picture: AgentPicture, busyCount: number) => void,
    private readonly clock: Clock,
    private readonly agent = new PaneAgent(pane.pid),
  ) {
    this.reports = new ReportThrottle((picture) => report(picture, this.busy), samePicture, clock);
  }

  /** How many times the agent's state turned working or blocked so far. */
  get busyCount(): number {
    return this.busy;
  }

  /** The state last evaluated (not yet posted, maybe). */
  get state(): AgentPicture['state'] {
    return this.lastState;
  }

  /** The detected agent, by its process. */
  get detected(): string | undefined {
    return this.agent.current;
  }

  /** The detected agent is a CLI that reads raw keys once its input runs (its table's `rawInput`). */
  get readsRawKeys(): boolean {
    const agent = this.agent.current;
    return agent !== undefined && readsRawInput(agent);
  }

  /** The detected agent left the foreground (what is in front now may be the pane's shell). */
  get lingering(): boolean {
    return this.agent.lingering;
  }
  /** The foreground process group its last process check saw. */
  get foregroundGroup(): number | undefined {
    return this.agent.foregroundGroup;
  }

  /** Told when a process check finds another group in front than the last one did. */
  set onForegroundChanged(listener: (() => void) | undefined) {
    this.agent.onForegroundChanged = listener;
  }

  /**
   * Screen changes need a look while an agent is there (its state is on the screen: a look
   * put off until the process check, up to PROCESS_CHECK_AFTER_MS, made gemini's half-drawn
   * frames read as idle for that long), and otherwise unless a process check is already on its
   * way (it looks at the screen too).
   */
  get wantsScreenChanges(): boolean {
    return this.agent.current !== undefined || this.processCheck === undefined;
  }

  /** The screen changed (the evaluation scheduler's look). */
  screenChanged(now: number): void {
    this.screenChangedAt = now;
    const checkDue = this.agent.lastProcessCheck + PROCESS_CHECK_AFTER_MS;
    if (now >= checkDue) this.agent.checkProcess(now);
    else {
      this.processCheck ??= this.clock.after(checkDue - now, () => {
        this.processCheck = undefined;
        if (!this.pane.ended) this.screenChanged(this.clock.now());
      });
    }
    this.evaluate(now);
  }

  /** The slow process tick. */
  tick(now: number): void {
    if (!this.wantsQuickTick && now - this.agent.lastProcessCheck < QUIET_PROCESS_CHECK_MS) return;
    if (this.agent.checkProcess(now)) this.evaluate(now);
    this.watchLinger(now);
  }

  /** Its screen changed since its last process check: the tick comes every PROCESS_TICK_MS. */
  get wantsQuickTick(): boolean {
    return this.screenChangedAt >= this.agent.lastProcessCheck;
  }

  /** The rule tables changed (a user's manifests, docs/protocol.md §10.8): who is in front and what the screen says, again. */
  tablesChanged(now: number): void {
    this.agent.checkProcess(now);
    this.evaluate(now);
  }

  /** A hook report (docs/protocol.md §10.5), applied at once. */
  hook(report: HookReport): void {
    const now = this.clock.now();
    if (this.agent.hook(report, now)) this.evaluate(now);
  }

  clearAuthority(request: ClearAuthority): void {
    if (this.agent.clearAuthority(request)) this.evaluate(this.clock.now());
  }

  /** The program's OSC 7501 status. */
  programStatus(status: ProgramStatus): void {
    const now = this.clock.now();
    this.agent.programStatus(status, now);
    this.evaluate(now);
  }

  explain(): AgentExplanation {
    return this.agent.explain(this.pane);
  }

  dispose(): void {
    this.processCheck?.cancel();
    this.recheck?.cancel();
    this.lingerEnd?.cancel();
    this.reports.dispose();
  }

  private evaluate(now: number): void {
    const { picture, recheckAt } = this.agent.evaluate(this.pane, now);
    if (picture) {
      if (picture.state !== this.lastState && (picture.state === 'working' || picture.state === 'blocked')) this.busy++;
      this.lastState = picture.state;
      this.reports.offer(picture);
    }
    if (recheckAt !== undefined) {
      this.recheck?.cancel();
      this.recheck = this.clock.after(Math.max(0, recheckAt - now), () => {
        this.recheck = undefined;
        if (!this.pane.ended) this.evaluate(this.clock.now());
      });
    }
    this.watchLinger(now);
    this.onEvaluated?.();
  }

  /** Every process check is followed by an evaluation or a tick's end: a linger it began gets its end's check. */
  private watchLinger(now: number): void {
    const endsAt = this.agent.lingerEndsAt;
    if (endsAt === undefined || this.lingerEnd) return;
    this.lingerEnd = this.clock.after(Math.max(0, endsAt - now), () => {
      this.lingerEnd = undefined;
      if (this.pane.ended) return;
      const at = this.clock.now();
      if (this.agent.checkProcess(at)) this.evaluate(at);
      else this.watchLinger(at);
    });
  }
}
