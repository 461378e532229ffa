/**
 * What the scripted model answers, as data. A test gives each agent (known by its API key,
 * or `*` for any) a list of turns; a turn is picked by the user text that starts it, and
 * answered one step per model request: text streamed at a rate, a call of the CLI's shell
 * tool (the next request carries its result and gets the next step), a stall, an HTTP error.
 * Requests a CLI makes on the side (titles, classifiers, quota checks) get a short text.
 */

/** One model response. */
export type Step =
  /** Stream `text` in chunks of `chunkChars` characters, one every `intervalMs` (the turn's answer). */
  | { say: string; chunkChars?: number; intervalMs?: number }
  /** Call the CLI's shell tool with `command` (after streaming `say`, if given). */
  | { shell: string; say?: string }
  /** Answer nothing for `ms`, then go on with `then` (or hang until the client gives up). */
  | { stallMs: number; then?: Step }
  /** Refuse the request with this HTTP status (429, 500, …). */
  | { fail: number; message?: string };

export interface ScriptedTurn {
  /** The turn starts on the first request whose new user text includes this (absent: the next unused turn in order). */
  when?: string;
  steps: Step[];
}

export interface AgentScript {
  turns: ScriptedTurn[];
  /** When no scripted turn fits: answer `reply` (default: `OK: ` and the first words of the prompt). */
  reply?: (userText: string) => string;
}

/** The default answer to an unscripted prompt: recognisable, short, and naming what it answers. */
export function defaultReply(userText: string): string {
  const words = userText.trim().replace(/\s+/g, ' ').slice(0, 60);
  return `OK: ${words}`;
}

/**
 * The turns of one agent as requests come: a request with new user text starts a turn, a
 * request carrying a tool's result goes on with the turn it belongs to.
 */
export class ScriptPlayer {
  private readonly used = new Set<number>();
  private current: { steps: Step[]; next: number } | undefined;

  constructor(private readonly script: AgentScript) {}

  /** The step answering a request that starts a turn with `userText`. */
  start(userText: string): Step {
    const turns = this.script.turns;
    let index = turns.findIndex((turn, i) => !this.used.has(i) && turn.when !== undefined && userText.includes(turn.when));
    if (index < 0) index = turns.findIndex((turn, i) => !this.used.has(i) && turn.when === undefined);
    if (index < 0) {
      this.current = undefined;
      return { say: (this.script.reply ?? defaultReply)(userText) };
    }
    this.used.add(index);
    const steps = turns[index]?.steps ?? [];
    this.current = { steps, next: 1 };
    return steps[0] ?? { say: defaultReply(userText) };
  }

  /** The step answering a tool's result within the current turn (its end: a short closing text). */
  goOn(): Step {
    const turn = this.current;
    if (!turn || turn.next >= turn.steps.length) return { say: 'Done.' };
    const step = turn.steps[turn.next] as Step;
    turn.next++;
    return step;
  }
}
