/**
 * Agent state rules of docs/protocol.md §10.2 as data: one table per agent, first rule
 * that holds wins, else the table's `otherwise`. Adding an agent or a pattern
 * is one entry here; `detect.ts` is the one engine and knows no agent.
 *
 * `has` is smart-case: an all-lowercase pattern is looked for in the
 * lowercased screen, any other pattern in the screen as it is.
 */
import type { Region } from '../../protocol/agent-manifest.js';
import type { AgentName, AgentState } from '../../protocol/objects.js';

export type Condition =
  | { has: string }
  | { any: Condition[] }
  | { all: Condition[] }
  /** Some line of the screen matches. */
  | { line: RegExp }
  /** From the first "do you want" (else "would you like") on, the text has "yes" or "❯". */
  | { confirmation: true }
  /** Claude: only the text above its prompt box (docs/protocol.md §10.2). */
  | { abovePromptBox: Condition }
  /** A line that matches, right below a rule line (only `─`, `━` or `═`, 20 or more): an input box's first line. */
  | { framed: RegExp }
  /** The window title the program set (OSC 0/2) matches. */
  | { title: RegExp }
  /** The text as a whole matches (a manifest's `regex`: it may span lines). */
  | { text: RegExp }
  /** The condition holds in a part of the screen (a manifest's `region`: the bottom lines, above the prompt box, …). */
  | { region: Region; when: Condition }
  /** The condition does not hold. */
  | { not: Condition };

export interface Rule {
  /** `unknown` only in a user's manifest (docs/protocol.md §10.8). */
  state: AgentState;
  when: Condition;
  /** A manifest rule's own id, shown by agent.explain. */
  id?: string;
  /** The screen is one the state must not be read from (a manifest's `skip_state_update`): the state stays as it was. */
  keep?: boolean;
}

/** The built-in tables name herdr's agents; a user's manifest may add one of any name. */
export interface AgentTable<Name extends string = string> {
  agent: Name;
  /** Process names (comm, argv[0], or an interpreter's script) that identify it, lowercase. */
  names: string[];
  /** Names of a pattern (a versioned launcher such as `muse-bin-42`). */
  namePatterns?: RegExp[];
  /** npm packages whose scripts are the agent, for `node …/node_modules/<package>/cli.js`. */
  packages?: string[];
  rules: Rule[];
  /**
   * The state of a screen no rule matched. Absent for the CLIs whose every state has a rule
   * from their real screens (idle only once their input is drawn): such a screen keeps the
   * state before it for a frame's gap (a screen between two frames) and is `unknown` after
   * (docs/protocol.md §10.2). `unknown` for an agent without screen rules (process detection
   * only): its hooks or status tell the state.
   */
  otherwise?: AgentState;
  /** A raw `idle` right after `working` stays `working` until this long after the last raw `working`. */
  holdWorkingMs?: number;
  /**
   * A raw `idle` right after `working` counts once the screen stayed unchanged this long (at most
   * ten times as long): opencode draws the end of its turn, then its answer's text in a later frame.
   */
  idleQuietMs?: number;
  /** It reads keys in raw mode once its input runs: a drawn prompt is not idle while the terminal is still canonical. */
  rawInput?: boolean;
  /**
   * Its first idle counts once it held this long: a CLI that flicks working → idle while it
   * finishes starting (codex starting its MCP server) is not ready before that.
   */
  readySettleMs?: number;
  /**
   * Its first idle counts once it reported its own status (OSC 7501), once its program is asleep
   * and next to idle on the CPU (a version that reports none), or after this long: Claude Code
   * draws its prompt, in raw mode, seconds before it reads keys when starved of CPU (16 s with
   * two busy loops on two cores), and reports its status as it starts to.
   */
  readyOnStatusMs?: number;
  /** How it takes a prompt (prompt-submission.ts); the defaults otherwise. */
  submit?: {
    enterDelayMs?: number;
    pasteEnterDelayMs?: number;
    /** Every prompt as a bracketed paste (when the CLI turned it on): codex holds fast typed keys, and Enter with them, as a paste of its own. */
    paste?: boolean;
    /** Where its input box is, to see whether the typed text is still in it. */
    input?: InputBox;
  };
  /** Its rules come from a user's manifest (docs/protocol.md §10.8): which file, and whether the agent is one the built-in tables lack. */
  manifest?: { path: string; version?: string; added: boolean };
}

/** Where a CLI's input box is on its screen; its text is what group 1 of the pattern takes. */
export type InputBox =
  /** The last line that matches (gemini's ` > text`). */
  | { lastLine: RegExp }
  /** The lines between the last two rule lines, joined by a space (claude's `❯ text`, pi's editor). */
  | { betweenRules: RegExp }
  /** The lines right above the last line matching `above`, as long as they match `edge` (opencode's `┃  text` above its agent row). */
  | { above: RegExp; edge: RegExp };

const has = (...patterns: string[]): Condition =>
  patterns.length === 1 ? { has: patterns[0] ?? '' } : { any: patterns.map((p) => ({ has: p })) };
const all = (...conditions: Condition[]): Condition => ({ all: conditions });
const any = (...conditions: Condition[]): Condition => ({ any: conditions });
const confirmation: Condition = { confirmation: true };
/** codex's, opencode's and kilo's working rule. */
const interrupt: Condition = any(has('esc to interrupt', 'ctrl+c to interrupt'), all(has('esc'), has('interrupt')));
/** The common working hint, for CLIs whose offline start never showed their working screen. */
const interruptHint: Condition = has('esc to interrupt', 'ctrl+c to interrupt');

/** kilo's screen (a fork of opencode): its permission dialog, and "esc interrupt" while it works. */
const KILO_RULES: Rule[] = [
  { state: 'blocked', when: has('△ Permission required') },
  { state: 'working', when: interrupt },
];

/** An agent known by its process only (no CLI on npm to take real screens from). */
const processOnly = (agent: AgentName, names: string[], namePatterns?: RegExp[]): AgentTable<AgentName> => ({
  agent,
  names,
  ...(namePatterns ? { namePatterns } : {}),
  rules: [],
  otherwise: 'unknown',
});

/**
 * A spinner glyph (claude 2.1 turns through `*` and `·` too), a space, a word, and `…` at the end or
 * before its timer ("✻ Thinking…", "* Puzzling… (3s · esc to interrupt)"); not a bullet of an answer.
 */
const CLAUDE_SPINNER = /^[✱✲✳✴✵✶✷✸✹✺✻✼✽✾✿❀❁❂❃❇❈❉❊❋✢✣✤✥✦✧✨⊛⊕⊙◉◎◍⁂⁕※⍟☼★☆*·] (?=.*[A-Za-z0-9]).*…(?:\s*\(.*\))?\s*$/u;

export const AGENT_TABLES: readonly AgentTable<AgentName>[] = [
  {
    agent: 'pi',
    names: ['pi'],
    packages: ['@mariozechner/pi-coding-agent'],
    rules: [
      // An extension's select dialog (`ctx.ui.select`: the permission gates people write), drawn under a spinner still
      // turning (screens/pi-permission-menu.blocked).
      { state: 'blocked', when: all(has('↑↓ navigate'), has('enter select')) },
      { state: 'working', when: has('Working...') },
      // Its footer below the editor: context use of the model (`0.0%/128k (auto)`), drawn once its input runs.
      { state: 'idle', when: { line: /\d+(?:\.\d+)?%\/\d+(?:\.\d+)?[km]? \(/ } },
    ],
    // A frame left by an earlier run shows the same footer: it is pi's only once its terminal is raw.
    rawInput: true,
    submit: { input: { betweenRules: /^(.*)$/s } },
  },
  {
    agent: 'claude',
    names: ['claude', 'claude-code'],
    packages: ['@anthropic-ai/claude-code'],
    rules: [
      { state: 'idle', when: has('⌕ Search…') },
      { state: 'idle', when: has('ctrl+r to toggle') },
      { state: 'blocked', when: confirmation },
      // A selected numbered choice, also indented (the theme picker, screens/claude-theme.blocked); not a task
      // with a digit and a dot in the prompt box or the transcript (claude-prompt-typed.idle).
      { state: 'blocked', when: { line: /^\s*❯ \d+\. / } },
      { state: 'blocked', when: has('esc to cancel') },
      // First start: the security notes wait for Enter (screens/claude-security-notes.blocked).
      { state: 'blocked', when: has('press enter to continue') },
      { state: 'working', when: { abovePromptBox: has('esc to interrupt', 'ctrl+c to interrupt') } },
      { state: 'working', when: { abovePromptBox: { line: CLAUDE_SPINNER } } },
      // The hint line below the prompt box while a request runs or retries (screens/claude-retrying.working), also
      // after its mode (`⏸ manual mode on · esc to interrupt`).
      { state: 'working', when: { line: /^\s*(?:\S.* · )?esc to interrupt(?: ·|$)/ } },
      // Its prompt box: `❯` right below a rule line (screens/claude-prompt.idle); before it is drawn, nothing.
      { state: 'idle', when: { framed: /^❯(?:\s|$)/ } },
    ],
    holdWorkingMs: 1200,
    rawInput: true,
    readyOnStatusMs: 15_000,
    submit: { enterDelayMs: 50, input: { betweenRules: /^❯\s?(.*)$/s } },
  },
  {
    agent: 'codex',
    names: ['codex'],
    packages: ['@openai/codex'],
    // codex 0.171 reports its own state (OSC 7501: idle, working, blocked, done) from its session's start; these
    // rules read its screen before that, and its dialogs it does not report.
    rules: [
      {
        state: 'blocked',
        when: has('press enter to confirm or esc to cancel', '| enter to submit answer', 'allow command?', '[y/n]', 'yes (y)'),
      },
      { state: 'blocked', when: confirmation },
      // First start: the sign-in menu waits for a choice (screens/codex-sign-in.blocked.txt).
      { state: 'blocked', when: all(has('press enter to continue'), { line: /^> \d+\. / }) },
      // Its other dialogs: a model's migration, hooks to review, a task still running at Ctrl-C (screens/codex-*.blocked).
      { state: 'blocked', when: all({ line: /^\s*› \d+\. / }, has('enter/esc confirm', 'enter confirm · esc skip', 'enter select · esc back')) },
      { state: 'working', when: { line: /^\s*[•◦] (?:Working|Reconnecting\.\.\. \d+\/\d+) \(/u } },
      { state: 'working', when: has('esc to interrupt', 'ctrl+c to interrupt') },
      // Its composer with the model and folder line under it: the session is configured (the same frame as its first
      // idle report); the composer alone shows while it still loads (screens/codex-start-loading.unknown).
      { state: 'idle', when: all({ line: /^› / }, { line: /^ {2}\S[^·]* · \/\S*/u }) },
    ],
    rawInput: true,
    readySettleMs: 700,
    submit: { paste: true, input: { lastLine: /^› (.*)$/ } },
  },
  {
    agent: 'gemini',
    names: ['gemini'],
    packages: ['@google/gemini-cli'],
    rules: [
      { state: 'blocked', when: has('waiting for user confirmation') },
      { state: 'blocked', when: has('│ Apply this change', '│ Allow execution', '│ Do you want to proceed') },
      { state: 'blocked', when: confirmation },
      // A dialog's numbered menu with its selected choice: the folder-trust question at the first start
      // in a folder, the sign-in method (screens/gemini-folder-trust, gemini-auth).
      { state: 'blocked', when: { line: /^\s*│?\s*● \d+\. / } },
      // A dialog's text field (the API key); its "Esc to cancel" is not the working hint.
      { state: 'blocked', when: has('press enter to submit') },
      { state: 'working', when: has('esc to cancel') },
      // Its spinner line, whatever follows the glyph: hooks' names, or a loading phrase long enough to wrap the
      // hint off the line (screens/gemini-streaming-executing-hooks; qwen, its fork, met the latter in CI).
      { state: 'working', when: { line: /^\s*[\u2800-\u28ff] \S/u } },
      // Its footer under the input box, drawn once it takes input; a frame it draws in two writes has none between them
      // (screens/gemini-partial-frame-mid-stream.working).
      { state: 'idle', when: has('workspace (/directory)') },
    ],
    rawInput: true,
    // An Enter within 30 ms of typed text is a newline to it, and one handled before it drew the text is nothing.
    submit: { enterDelayMs: 50, pasteEnterDelayMs: 250, input: { lastLine: /^ > (.*)$/ } },
  },
  {
    agent: 'cursor',
    names: ['cursor', 'cursor-agent'],
    rules: [
      { state: 'blocked', when: has('(y) (enter)', 'keep (n)', 'skip (esc or n)') },
      { state: 'blocked', when: all(has('(y)'), has('allow', 'run')) },
      { state: 'working', when: has('ctrl+c to stop') },
      { state: 'working', when: { line: /^[⬡⬢].*ing/u } },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'cline',
    names: ['cline', '.cline'],
    packages: ['cline'],
    rules: [
      { state: 'blocked', when: has('let cline use this tool') },
      { state: 'blocked', when: all(has('[act mode]', '[plan mode]'), has('yes')) },
      // First start: the sign-in, provider, API key, model and thinking-level dialogs, the sign-in error, and an
      // offer that any key closes (screens/cline-sign-in, cline-provider, cline-api-key, cline-clinepass-offer, …).
      { state: 'blocked', when: has('↑/↓ navigate, enter to select', 'esc to go back', 'any other key to close') },
      { state: 'idle', when: has('cline is ready for your message') },
      // The prompt's Plan/Act switch shows while idle and working alike; the spinner's hint tells them apart
      // (screens/cline-thinking.working, cline-prompt.idle).
      { state: 'working', when: has('(esc to cancel)') },
      { state: 'idle', when: has('○ Plan ● Act (Tab)', '● Plan ○ Act (Tab)') },
    ],
    otherwise: 'working',
  },
  {
    agent: 'opencode',
    names: ['opencode', 'opencode2', 'open-code'],
    packages: ['opencode-ai'],
    rules: [
      // Its dialogs: the permission question and "always allow"'s confirmation, a row of buttons (screens/opencode-permission.blocked).
      { state: 'blocked', when: has('△ Permission required', '△ Always allow') },
      { state: 'blocked', when: all(has('⇆ select'), has('enter confirm')) },
      // The footer's hint while it works, not the words anywhere (a transcript saying "interrupt" is not work).
      { state: 'working', when: { line: /^\s*[⬝■]+\s+esc (?:again to )?interrupt\b/u } },
      // Its input box with the agent and model row and the box's bottom edge: drawn once it takes input
      // (the alternate screen stays blank for seconds before, screens/opencode-start-blank).
      { state: 'idle', when: all({ line: /^\s*┃ {2}\S+ · \S/u }, has('╹▀')) },
    ],
    rawInput: true,
    // Its answer's text comes 10–50 ms after the frame that ends its turn (docs/agents.md).
    idleQuietMs: 100,
    submit: { input: { above: /^\s*┃ {2}\S+ · \S/u, edge: /^\s*┃(?: {2}(.*))?$/u } },
  },
  {
    agent: 'copilot',
    names: ['github-copilot', 'ghcs', 'copilot'],
    packages: ['@github/copilot'],
    rules: [
      { state: 'blocked', when: has('│ do you want') },
      { state: 'blocked', when: all(has('confirm with'), has('enter')) },
      // A dialog's selected numbered choice (folder trust, the sign-in menus: screens/copilot-folder-trust,
      // copilot-login-account) and the failed sign-in; its "esc to cancel" is not the working hint.
      { state: 'blocked', when: { line: /^│? ❯ \d+\. / } },
      { state: 'blocked', when: has('press any key to retry') },
      { state: 'working', when: has('esc to cancel') },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'kimi',
    // A program may set its title (and so its comm) to a name with a space.
    names: ['kimi', 'kimi-code', 'kimi code'],
    rules: [
      { state: 'blocked', when: has('allow?', 'confirm?', 'approve?', 'proceed?', '[y/n]', '(y/n)') },
      {
        state: 'working',
        when: has('thinking', 'processing', 'generating', 'waiting for response', 'ctrl+c to cancel', 'ctrl-c to cancel'),
      },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'droid',
    names: ['droid'],
    packages: ['@factory/cli', 'droid'],
    rules: [
      { state: 'blocked', when: all(has('EXECUTE'), any(has('enter to select', '↑↓ to navigate', 'esc to cancel'), has('> yes, allow', '> no, cancel'))) },
      { state: 'blocked', when: all(has('enter to select', '↑↓ to navigate', 'esc to cancel'), has('> yes, allow', '> no, cancel')) },
      // First start: the login menu and its retry after a failure (screens/droid-login, droid-login-failed).
      { state: 'blocked', when: has('please login with your factory account', 'press enter to try again') },
      { state: 'working', when: has('esc to stop') },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'amp',
    names: ['amp', 'amp-local'],
    packages: ['@sourcegraph/amp', '@ampcode/cli'],
    rules: [
      // First start without a key: the log-in question, then the code field (screens/amp-log-in, amp-paste-code).
      { state: 'blocked', when: has('[(y)es, (n)o]', 'paste your code here') },
      { state: 'working', when: has('esc to cancel') },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'qwen',
    names: ['qwen', 'qwen-code', 'qwen code'],
    packages: ['@qwen-code/qwen-code'],
    rules: [
      // Its permission menu: `› 1. Yes, allow once` with no box edge, the spinner line below it saying so
      // (screens/qwen-permission-shell.blocked).
      { state: 'blocked', when: has('waiting for user confirmation') },
      { state: 'blocked', when: { line: /^\s*› \d+\. / } },
      { state: 'blocked', when: confirmation },
      // A dialog's hint: the provider list, the API key and model fields (screens/qwen-provider, qwen-api-key, …).
      { state: 'blocked', when: has('esc to go back') },
      // A dialog's selected choice without a hint: the first start's sign-in menu (screens/qwen-auth, qwen-connect-provider).
      { state: 'blocked', when: { line: /^\s*│ › \S/ } },
      { state: 'working', when: has('esc to cancel') },
      // Its spinner line with the time spent, and the hint its footer shows while it works: a long
      // loading message wraps "esc to / cancel)" over two lines (screens/qwen-spinner-wrapped.working).
      { state: 'working', when: { line: /^\s*[\u2800-\u28ff].*\((?:\d+[hms] ?)+ · /u } },
      { state: 'working', when: has('Enter to steer · ') },
      { state: 'working', when: has('Initializing...') },
      // A prompt it took while starting, shown in its footer for a moment (screens/qwen-prompt-queued.working).
      { state: 'working', when: { line: /⏳ \d+ queued/u } },
      // Its mode line under the input box, drawn once it takes input (a frame is drawn top down: a half-drawn
      // one lacks it as it lacks the spinner), and the hints that replace it for a moment.
      { state: 'idle', when: has('(shift + tab to cycle)', '(tab to cycle)', 'press ctrl+c again to exit', 'press esc again to clear') },
      // The footer of the versions before 0.2x (screens/qwen-api-error.idle, 0.15.10).
      { state: 'idle', when: has('? for shortcuts') },
    ],
    rawInput: true,
    submit: { input: { betweenRules: /^>\s?(.*)$/s } },
  },
  {
    agent: 'letta',
    names: ['letta', 'letta-code', 'letta code'],
    packages: ['@letta-ai/letta-code'],
    rules: [
      // The first start's login menu, and its dead end offline (screens/letta-login, letta-login-error).
      { state: 'blocked', when: has('use ↑/↓ to navigate, enter to select', 'press ctrl+c to exit') },
      { state: 'blocked', when: confirmation },
      { state: 'working', when: interruptHint },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'kilo',
    names: ['kilo', 'kilocode', 'kilo-code', 'kilo code'],
    packages: ['@kilocode/cli'],
    // A fork of opencode: the same screen ("esc interrupt" while a request runs, screens/kilo-thinking.working).
    rules: KILO_RULES,
    otherwise: 'idle',
  },
  {
    agent: 'mastracode',
    names: ['mastracode', 'mastra-code', 'mastra code'],
    packages: ['mastracode'],
    rules: [
      // The setup's menus (screens/mastracode-auth, mastracode-model-pack) and the welcome's choice
      // (`→   Continue`, screens/mastracode-welcome), which has no hint line.
      { state: 'blocked', when: has('↑↓ navigate · enter select') },
      { state: 'blocked', when: { line: /^\s+→ {2,}\S/ } },
      { state: 'blocked', when: confirmation },
      { state: 'working', when: interruptHint },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'qodercli',
    names: ['qodercli', 'qoderclicn', 'qoder', 'qodercn'],
    packages: ['@qoder-ai/qodercli'],
    rules: [
      // Folder trust, sign-in, login method and the browser login all end in "Esc back" (screens/qodercli-*.blocked).
      { state: 'blocked', when: has('esc back') },
      { state: 'blocked', when: { line: /^\s*❯ \d+\. / } },
      { state: 'blocked', when: confirmation },
      { state: 'working', when: interruptHint },
    ],
    otherwise: 'idle',
  },
  {
    agent: 'omp',
    names: ['omp'],
    packages: ['@oh-my-pi/pi-coding-agent'],
    rules: [
      // The first start's setup steps (screens/omp-setup-*.blocked).
      { state: 'blocked', when: has('↑/↓ select · enter confirm', 'ctrl+c exit setup') },
      { state: 'working', when: has('Working…', 'Working...') },
    ],
    otherwise: 'idle',
  },
  processOnly('devin', ['devin', 'devin-cli', 'devin cli']),
  processOnly('agy', ['agy', 'antigravity', 'antigravity-cli']),
  processOnly('kiro', ['kiro', 'kiro-cli']),
  processOnly('grok', ['grok', 'grok-build']),
  processOnly('hermes', ['hermes', 'hermes-agent']),
  processOnly('maki', ['maki']),
  // Its install-dir launcher carries a build number (comm keeps the first 15 characters).
  processOnly('muse', ['muse', 'muse-code', 'muse-cli'], [/^muse-bin-\d+$/]),
  processOnly('jcode', ['jcode', 'j-code']),
];
