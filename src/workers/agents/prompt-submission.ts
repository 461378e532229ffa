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
/** An Enter that moved nothing and left the text in the input box is pressed again after this long… */
const ENTER_AGAIN_AFTER_MS = 700;
/** …this many times in all. */
const MAX_ENTERS = 3;
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
  private phase: 'echo' | 'enter' | 'confirm' | 'done' = 'echo';
  private readonly head: string | undefined;
  private readonly paste: boolean;
  private readonly echoesBefore: number;
  private timer: Timer | undefined;
  private echoedAt: number | undefined;
  private enteredAt: number | undefined;
  private firstEnterAt = 0;
  private enters = 0;
  private busyAtEnter = 0;

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
    this.target.write(this.text, [], this.paste);
    this.after(ECHO_WAIT_MS, () => this.pressEnter());
    this.look();
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
   * Took it: its state moved, or its input box let go of the text. Else, when the wait after
   * an Enter is over: Enter again where that is known to be safe (the text still in the input
   * box of an agent still idle), else wait out the stall window, then give up.
   */
  private confirm(timedOut = false): void {
    if (this.phase !== 'confirm') return;
    if (this.target.busyCount() > this.busyAtEnter) return this.finish(true, 'state');
    const input = this.profile.input?.(this.target.screen());
    const stillTyped = this.head !== undefined && input !== undefined && flat(input).includes(this.head);
    if (input !== undefined && this.head !== undefined && !stillTyped) return this.finish(true, 'input');
    if (!timedOut) return;
    if (stillTyped && this.enters < MAX_ENTERS && this.target.state() === 'idle') return this.pressEnter();
    const left = this.firstEnterAt + this.stallMs - this.clock.now();
    if (left > 0) return this.after(left, () => this.confirm(true));
    this.finish(false, undefined);
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
      ...(accepted ? { acceptedAt: Date.now() } : {}),
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
