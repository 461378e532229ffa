/**
 * Submitting a prompt to an agent CLI the way a person does, and making sure it took
 * (docs/protocol.md §13.7): type the text, see it on the screen, wait the CLI's own gap,
 * press Enter, and see the CLI take it (its state moves, or its input box no longer holds
 * the text). An Enter that did not take is pressed again while the text still sits in the
 * input box and the agent is still idle; the text is never typed twice. A prompt the CLI
 * never takes ends unaccepted, with the screen lines that show where the text was left.
 *
 * Why each step (test/fixtures/screens, docs/agents.md): gemini-cli takes an Enter within
 * 30 ms of a typed key as a newline, and an Enter handled before it has drawn the typed text
 * as nothing; codex holds fast keys as a paste and Enter with them; claude drops an Enter
 * that comes with its text. A bracketed paste needs a longer gap (gemini: 200 ms).
 */
import type { AgentState } from '../../protocol/objects.js';
import type { ResolvedKey } from '../../protocol/keys.js';
import type { SubmitResult } from '../../protocol/thread.js';
import type { Clock, Timer } from '../clock.js';
import type { GroupCpu } from '../../os/group-cpu.js';
import { coreShare } from '../../os/proc-stat.js';

/** How a CLI takes a submission (rules.ts gives each CLI's; DEFAULT_SUBMIT otherwise). */
export interface SubmitProfile {
  /** After the text shows, this long before Enter. */
  enterDelayMs: number;
  /** …when the text went as a bracketed paste (multi-line text, or every text with `paste`). */
  pasteEnterDelayMs: number;
  /** Every prompt as a bracketed paste (when the program turned it on), not only multi-line ones. */
  paste?: boolean;
  /** The text of the CLI's input box on this screen; undefined when it cannot be told (then Enter is not pressed again). */
  input?: (screen: string) => string | undefined;
}

export const DEFAULT_SUBMIT: SubmitProfile = { enterDelayMs: 30, pasteEnterDelayMs: 250 };

/** The text is looked for on the screen this long; then Enter goes anyway (a CLI may show a long paste as "[Pasted text]"). */
const ECHO_WAIT_MS = 1500;
/** …this long for a CLI whose input box is read, and longer while it is busy on the CPU (BUSY_CPU_SHARE). */
const BOX_ECHO_WAIT_MS = 3000;
/** An Enter that moved nothing and left the text in the input box is pressed again after this long… */
const ENTER_AGAIN_AFTER_MS = 700;
/** …this many times in all. */
const MAX_ENTERS = 3;
/**
 * A CLI that waits for a core, or used this share of one since the last look, is still at work
 * on the keys, not ignoring them: a starved one in a busy fleet (Claude Code, 20 agents on 2 cores) takes
 * seconds to act on an Enter. Its stall window stretches, to STALL_STRETCH times at most.
 */
const BUSY_CPU_SHARE = 0.05;
const STALL_STRETCH = 6;
/**
 * …and once its input box let go of the text, to this many times: the CLI has the prompt and is
 * at work, and its turn is coming (50 agents on 2 cores: Claude Code and opencode showed theirs
 * 20–30 s after taking the text; ending those turns stalled let the next prompt in behind them).
 */
const STARTED_STRETCH = 24;
/** Shorter than this, the text is not told from what was on the screen (`y`, `1`). */
const MIN_HEAD = 4;
/** Enough to know the line, short enough not to wrap in a narrow input box. */
const MAX_HEAD = 24;
/** Screen lines given as the evidence of a prompt that did not take. */
const EVIDENCE_LINES = 6;

/** What of `text` the screen is searched for, or undefined when it is too short to tell. */
export function echoHead(text: string): string | undefined {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '')?.trim().replace(/\s+/g, ' ');
  if (first === undefined || first.length < MIN_HEAD || /[\u0000-\u001f]/.test(first)) return undefined;
  return [...first].slice(0, MAX_HEAD).join('');
}

/** The pane and agent a submission works on. */
export interface SubmissionTarget {
  /** Types `text` (as a bracketed paste when `paste` and the program asked for them) and then `keys`, in one write. */
  write(text: string, keys: ResolvedKey[], paste: boolean): void;
  /** The visible screen as plain text. */
  screen(): string;
  /** How many times the agent turned working or blocked (agent-checks.ts). */
  busyCount(): number;
  state(): AgentState;
  /** The CPU use of the agent's process group so far; undefined when it cannot be read. */
  cpu(): GroupCpu | undefined;
}

function count(haystack: string, needle: string): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) found++;
  return found;
}

/** Normalizes blanks: a CLI may wrap or pad the typed text. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

export class PromptSubmission {
  private phase: 'echo' | 'enter' | 'confirm' | 'start' | 'done' = 'echo';
  private readonly head: string | undefined;
  private readonly paste: boolean;
  private readonly echoesBefore: number;
  private timer: Timer | undefined;
  private echoedAt: number | undefined;
  private enteredAt: number | undefined;
  private firstEnterAt = 0;
  private enters = 0;
  private busyAtEnter = 0;
  private typedAt = 0;
  /** When its input box let go of the text (ms since the epoch, and the clock's), waiting for its state to move. */
  private letGoAt: { epoch: number; clock: number } | undefined;
  /** The agent's CPU ticks and the clock when they were last read (stillBusy). */
  private lastCpu: { ticks: number; at: number } | undefined;

  constructor(
    private readonly target: SubmissionTarget,
    private readonly text: string,
    private readonly enter: ResolvedKey,
    private readonly profile: SubmitProfile,
    private readonly stallMs: number,
    private readonly clock: Clock,
    private readonly done: (result: SubmitResult) => void,
  ) {
    this.head = echoHead(text);
    this.paste = profile.paste === true || /[\r\n]/.test(text);
    this.echoesBefore = this.head === undefined ? 0 : count(flat(target.screen()), this.head);
  }

  start(): void {
    this.typedAt = this.clock.now();
    this.target.write(this.text, [], this.paste);
    this.after(this.profile.input ? BOX_ECHO_WAIT_MS : ECHO_WAIT_MS, () => this.echoWaitOver());
    this.look();
  }

  /**
   * The text has not shown: Enter anyway (a CLI may show a long paste as a placeholder), unless
   * the CLI is still busy on the CPU, most likely with these keys: typing it again could double it.
   */
  private echoWaitOver(): void {
    if (this.phase !== 'echo') return;
    const now = this.clock.now();
    const busy = this.stillBusy(now);
    // The first look at its CPU is the mark the next one is measured from.
    if ((busy === undefined || busy) && now - this.typedAt < this.stallMs * STALL_STRETCH) return this.after(ENTER_AGAIN_AFTER_MS, () => this.echoWaitOver());
    this.pressEnter();
  }

  /** The pane's screen or its agent's state changed. */
  look(): void {
    if (this.phase === 'echo') {
      if (this.head === undefined || count(flat(this.target.screen()), this.head) > this.echoesBefore) {
        this.echoedAt = Date.now();
        this.phase = 'enter';
        this.after(this.paste ? this.profile.pasteEnterDelayMs : this.profile.enterDelayMs, () => this.pressEnter());
      }
      return;
    }
    if (this.phase === 'confirm') this.confirm();
    else if (this.phase === 'start' && this.target.busyCount() > this.busyAtEnter) this.finish(true, 'state');
  }

  /** The pane went away: it ends, not taken, and says so. */
  abort(): void {
    if (this.phase !== 'done') this.finish(false, undefined, true);
  }

  private pressEnter(): void {
    if (this.phase === 'done') return;
    this.phase = 'confirm';
    if (this.enters === 0) {
      this.busyAtEnter = this.target.busyCount();
      this.enteredAt = Date.now();
      this.firstEnterAt = this.clock.now();
    }
    this.enters++;
    this.target.write('', [this.enter], false);
    this.after(ENTER_AGAIN_AFTER_MS, () => this.confirm(true));
  }

  /**
   * Took it: its state moved, or its input box let go of the text (then its state has the stall
   * window to move, startWaitOver). Else, when the wait after
   * an Enter is over: Enter again where that is known to be safe (the text still in the input
   * box of an agent still idle), else wait out the stall window, then give up.
   */
  private confirm(timedOut = false): void {
    if (this.phase !== 'confirm') return;
    if (this.target.busyCount() > this.busyAtEnter) return this.finish(true, 'state');
    const input = this.profile.input?.(this.target.screen());
    const stillTyped = this.head !== undefined && input !== undefined && flat(input).includes(this.head);
    // The box letting go counts only for text seen in it: text never drawn was never in it.
    if (input !== undefined && this.head !== undefined && this.echoedAt !== undefined && !stillTyped) return this.letGo();
    if (!timedOut) return;
    const now = this.clock.now();
    // A CLI still busy on the CPU has not got to the last Enter yet: another would only queue behind it.
    const busy = this.stillBusy(now);
    if (stillTyped && busy !== true && this.enters < MAX_ENTERS && this.target.state() === 'idle') return this.pressEnter();
    const waited = now - this.firstEnterAt;
    if (waited < this.stallMs || (busy !== false && waited < this.stallMs * STALL_STRETCH)) {
      const next = waited < this.stallMs ? Math.min(ENTER_AGAIN_AFTER_MS, this.stallMs - waited) : ENTER_AGAIN_AFTER_MS;
      return this.after(next, () => this.confirm(true));
    }
    this.finish(false, undefined);
  }

  private letGo(): void {
    this.phase = 'start';
    this.letGoAt = { epoch: Date.now(), clock: this.clock.now() };
    this.after(this.stallMs, () => this.startWaitOver());
  }

  /**
   * Its input box let go of the text a stall window ago and its state has not moved: wait on while
   * it is busy on the CPU (a starved opencode turned working 5–10 s after it took a prompt, 20
   * agents on 2 cores), to STARTED_STRETCH times the window; then it took the text, but no turn started.
   */
  private startWaitOver(): void {
    if (this.phase !== 'start' || this.letGoAt === undefined) return;
    if (this.target.busyCount() > this.busyAtEnter) return this.finish(true, 'state');
    const now = this.clock.now();
    const busy = this.stillBusy(now);
    if (busy !== false && now - this.letGoAt.clock < this.stallMs * STARTED_STRETCH) return this.after(ENTER_AGAIN_AFTER_MS, () => this.startWaitOver());
    this.finish(true, 'input');
  }

  /**
   * Whether the agent waits for a core now or used BUSY_CPU_SHARE of one since the last time this
   * was asked; undefined the first time, false where its CPU cannot be read. Read only on the slow
   * paths: it scans /proc.
   */
  private stillBusy(now: number): boolean | undefined {
    const cpu = this.target.cpu();
    if (cpu === undefined) return false;
    const last = this.lastCpu;
    this.lastCpu = { ticks: cpu.ticks, at: now };
    // Waiting for a core: starved, it uses little CPU but has not got to the keys yet.
    if (cpu.runnable) return true;
    if (last === undefined || now <= last.at) return undefined;
    return coreShare(cpu.ticks - last.ticks, now - last.at) >= BUSY_CPU_SHARE;
  }

  private finish(accepted: boolean, by: SubmitResult['acceptedBy'], ended = false): void {
    this.timer?.cancel();
    this.phase = 'done';
    const lines = this.target.screen().split('\n').filter((line) => line.trim() !== '');
    this.done({
      accepted,
      ...(by === undefined ? {} : { acceptedBy: by }),
      ...(this.echoedAt === undefined ? {} : { echoedAt: this.echoedAt }),
      enteredAt: this.enteredAt ?? Date.now(),
      ...(accepted ? { acceptedAt: this.letGoAt?.epoch ?? Date.now() } : {}),
      enters: this.enters,
      busyAtEnter: this.busyAtEnter,
      ...(accepted ? {} : { evidence: lines.slice(-EVIDENCE_LINES) }),
      ...(ended ? { paneEnded: true } : {}),
    });
  }

  private after(ms: number, task: () => void): void {
    this.timer?.cancel();
    this.timer = this.clock.after(Math.max(0, ms), task);
  }
}
