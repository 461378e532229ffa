/**
 * The one engine for agent rules (rules.ts): which agent a process name
 * means, and which state a screen shows. No agent-specific code here. The
 * tables in use are the built-in ones with the user's manifests applied
 * (manifest-tables.ts), swapped whole when those change.
 */
import { basename } from 'node:path';
import { type Region, regionName } from '../../protocol/agent-manifest.js';
import type { AgentState } from '../../protocol/objects.js';
import type { ScreenExplanation } from '../../protocol/thread.js';
import { AGENT_TABLES, type AgentTable, type Condition, type InputBox, type Rule } from './rules.js';
import { DEFAULT_SUBMIT, type SubmitProfile } from './prompt-submission.js';
import { regionText } from './screen-regions.js';

/** The tables in use, looked up by label, process name, npm package and name pattern. */
interface TableIndex {
  tables: Map<string, AgentTable>;
  byName: Map<string, string>;
  byPackage: Map<string, string>;
  patterns: Array<{ pattern: RegExp; agent: string }>;
}

function indexTables(tables: readonly AgentTable[]): TableIndex {
  return {
    tables: new Map(tables.map((table) => [table.agent, table])),
    byName: new Map(tables.flatMap((table) => table.names.map((name) => [name, table.agent] as const))),
    byPackage: new Map(tables.flatMap((table) => (table.packages ?? []).map((pkg) => [pkg, table.agent] as const))),
    patterns: tables.flatMap((table) => (table.namePatterns ?? []).map((pattern) => ({ pattern, agent: table.agent }))),
  };
}

let active = indexTables(AGENT_TABLES);

/** The tables detection uses from now on, whole (the built-in ones with a user's manifests applied). */
export function useAgentTables(tables: readonly AgentTable[]): void {
  active = indexTables(tables);
}

/** The tables in use now. */
export function agentTables(): readonly AgentTable[] {
  return [...active.tables.values()];
}
const INTERPRETERS = new Set(['node', 'bun', 'deno', 'python', 'python3']);
/** Versioned Pythons (`python3.13`) run scripts the same way. */
const VERSIONED_PYTHON = /^python3?\.\d+$/;
const SCRIPT_EXTENSION = /\.(?:[cm]?js|ts|py)$/;
/** The package a script lies in: the last `node_modules/<name>` or `node_modules/@scope/<name>` of its path. */
const PACKAGE_IN_PATH = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//;

function byName(name: string): string | undefined {
  const lower = name.toLowerCase();
  return active.byName.get(lower) ?? active.patterns.find(({ pattern }) => pattern.test(lower))?.agent;
}

/** The agent an interpreter's script is: by its name (an npm bin shim keeps the command's name), else by its package. */
function agentOfScript(script: string): string | undefined {
  const named = byName(basename(script).replace(SCRIPT_EXTENSION, ''));
  if (named) return named;
  const pkg = PACKAGE_IN_PATH.exec(script)?.[1];
  return pkg === undefined ? undefined : active.byPackage.get(pkg.toLowerCase());
}

/**
 * The agent a process is (docs/protocol.md §10.1): its `comm` (which a program may set
 * through its title), the name it was started under (argv[0], whole where comm keeps 15
 * characters), or for an interpreter the script it runs.
 */
export function agentOfProcess(comm: string, argv: readonly string[]): string | undefined {
  const direct = byName(comm) ?? (argv[0] ? byName(basename(argv[0])) : undefined);
  if (direct) return direct;
  const name = comm.toLowerCase();
  if (!INTERPRETERS.has(name) && !VERSIONED_PYTHON.test(name)) return undefined;
  const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
  return script ? agentOfScript(script) : undefined;
}

/** How `agent` takes a prompt: its table's profile over the defaults. */
export function submitProfileOf(agent: string | undefined): SubmitProfile {
  const submit = agent === undefined ? undefined : active.tables.get(agent)?.submit;
  if (!submit) return DEFAULT_SUBMIT;
  const box = submit.input;
  return {
    enterDelayMs: submit.enterDelayMs ?? DEFAULT_SUBMIT.enterDelayMs,
    pasteEnterDelayMs: submit.pasteEnterDelayMs ?? DEFAULT_SUBMIT.pasteEnterDelayMs,
    ...(box ? { input: (text: string) => inputText(box, new Screen(text).lines) } : {}),
  };
}

/** The text in a CLI's input box on this screen; undefined when the box is not there. */
export function inputText(box: InputBox, lines: readonly string[]): string | undefined {
  const take = (pattern: RegExp, text: string): string | undefined => {
    const match = pattern.exec(text);
    return match ? (match[1] ?? '') : undefined;
  };
  if ('lastLine' in box) {
    for (let i = lines.length - 1; i >= 0; i--) {
      const found = take(box.lastLine, lines[i] ?? '');
      if (found !== undefined) return found.trim();
    }
    return undefined;
  }
  if ('betweenRules' in box) {
    const rules = lines.flatMap((line, index) => (RULE_LINE.test(line) ? [index] : []));
    const [top, bottom] = rules.slice(-2);
    if (top === undefined || bottom === undefined) return undefined;
    return take(box.betweenRules, lines.slice(top + 1, bottom).map((line) => line.trim()).join(' ').trim())?.trim();
  }
  let at = -1;
  for (let i = lines.length - 1; i >= 0 && at < 0; i--) if (box.above.test(lines[i] ?? '')) at = i;
  if (at < 0) return undefined;
  const parts: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const found = take(box.edge, lines[i] ?? '');
    if (found === undefined) break;
    parts.unshift(found.trim());
  }
  return parts.join(' ').trim();
}

/** Whether the agent reads raw keys once its input runs (its table's `rawInput`). */
export function readsRawInput(agent: string): boolean {
  return active.tables.get(agent)?.rawInput === true;
}

/** How long the agent's first idle must hold before it counts (its table's `readySettleMs`). */
export function readySettleOf(agent: string): number | undefined {
  return active.tables.get(agent)?.readySettleMs;
}

/** How long the agent's first idle waits for its own status report (its table's `readyOnStatusMs`). */
export function readyOnStatusOf(agent: string): number | undefined {
  return active.tables.get(agent)?.readyOnStatusMs;
}

/** Whether the agent has screen rules (not one known by its process only). */
export function hasScreenRules(agent: string): boolean {
  return (active.tables.get(agent)?.rules.length ?? 0) > 0;
}

/** The detector's name for a label a hook reported (`claude-code` is claude), if it knows it. */
export function knownAgent(label: string): string | undefined {
  return byName(label);
}

class Screen {
  readonly lower: string;
  private linesCache: string[] | undefined;
  /** Each table's first rule that holds here (null: none): a look asks it up to three times. */
  readonly firstRules = new Map<AgentTable, Rule | null>();
  private promptBoxRegion: Screen | undefined;
  private regions: Map<string, Screen> | undefined;

  constructor(
    readonly text: string,
    readonly title = '',
  ) {
    this.lower = text.toLowerCase();
  }

  get lines(): string[] {
    return (this.linesCache ??= this.text.split('\n'));
  }

  /** The text above the second line from the bottom that is only `─` (all of it if there are fewer). */
  abovePromptBox(): Screen {
    if (!this.promptBoxRegion) {
      let found = 0;
      let cut = -1;
      for (let i = this.lines.length - 1; i >= 0; i--) {
        if (/^─+$/.test(this.lines[i]?.trim() ?? '') && ++found === 2) {
          cut = i;
          break;
        }
      }
      this.promptBoxRegion = cut === -1 ? this : new Screen(this.lines.slice(0, cut).join('\n'), this.title);
    }
    return this.promptBoxRegion;
  }

  /** A manifest rule's region of this screen (screen-regions.ts). */
  region(region: Region): Screen {
    const name = regionName(region);
    this.regions ??= new Map();
    let screen = this.regions.get(name);
    if (!screen) {
      screen = new Screen(regionText(region, this.text, this.title), this.title);
      this.regions.set(name, screen);
    }
    return screen;
  }
}

const RULE_LINE = /^\s*[─━═]{20,}\s*$/;

/** The last line matching `pattern` whose line above is a rule line (an input box's first line). */
function framedLine(screen: Screen, pattern: RegExp): string | undefined {
  const lines = screen.lines;
  for (let i = lines.length - 1; i > 0; i--) {
    const line = lines[i] ?? '';
    if (pattern.test(line) && RULE_LINE.test(lines[i - 1] ?? '')) return line;
  }
  return undefined;
}

function holds(condition: Condition, screen: Screen): boolean {
  if ('has' in condition) {
    const pattern = condition.has;
    return pattern === pattern.toLowerCase() ? screen.lower.includes(pattern) : screen.text.includes(pattern);
  }
  if ('any' in condition) return condition.any.some((c) => holds(c, screen));
  if ('all' in condition) return condition.all.every((c) => holds(c, screen));
  if ('line' in condition) {
    const pattern = condition.line;
    return screen.lines.some((line) => pattern.test(line));
  }
  if ('title' in condition) return condition.title.test(screen.title);
  if ('text' in condition) return condition.text.test(screen.text);
  if ('region' in condition) return holds(condition.when, screen.region(condition.region));
  if ('not' in condition) return !holds(condition.not, screen);
  if ('framed' in condition) return framedLine(screen, condition.framed) !== undefined;
  if ('confirmation' in condition) {
    let at = screen.lower.indexOf('do you want');
    if (at === -1) at = screen.lower.indexOf('would you like');
    if (at === -1) return false;
    const rest = screen.lower.slice(at);
    return rest.includes('yes') || rest.includes('❯');
  }
  return holds(condition.abovePromptBox, screen.abovePromptBox());
}

/** The first rule that holds. */
function firstRule(table: AgentTable, screen: Screen): Rule | undefined {
  let rule = screen.firstRules.get(table);
  if (rule === undefined) {
    rule = table.rules.find((candidate) => holds(candidate.when, screen)) ?? null;
    screen.firstRules.set(table, rule);
  }
  return rule ?? undefined;
}

/**
 * A pane's last screen and what its rules made of it: a look reads the state up to three times,
 * and a screen that did not change since the last look (the same text: visible-text.ts gives
 * the same string back) is not read by the rules again.
 */
export class ScreenMemo {
  private last: Screen | undefined;

  of(text: string, title: string): Screen {
    if (this.last?.text !== text || this.last.title !== title) this.last = new Screen(text, title);
    return this.last;
  }
}

/** For callers without a pane of their own (tests, explain). */
const anyPane = new ScreenMemo();

/** The state of the first rule that holds, else the table's `otherwise`; undefined when neither says. */
function matchedState(table: AgentTable, screen: Screen): AgentState | undefined {
  return firstRule(table, screen)?.state ?? table.otherwise;
}

/** The state the screen shows for `agent`, by its table alone (no hold): `unknown` when no rule says. */
export function screenState(agent: string, text: string, title = '', screens = anyPane): AgentState {
  const table = active.tables.get(agent);
  if (!table) return 'idle';
  return matchedState(table, screens.of(text, title)) ?? 'unknown';
}

/** A condition as a person reads it: `has "Working..."`, `line /^> /`, `any(…)`. */
function describe(condition: Condition): string {
  if ('has' in condition) return `has ${JSON.stringify(condition.has)}`;
  if ('any' in condition) return `any(${condition.any.map(describe).join(', ')})`;
  if ('all' in condition) return `all(${condition.all.map(describe).join(', ')})`;
  if ('line' in condition) return `line ${String(condition.line)}`;
  if ('confirmation' in condition) return 'confirmation ("do you want"/"would you like", then "yes" or "❯")';
  if ('title' in condition) return `title ${String(condition.title)}`;
  if ('text' in condition) return `text ${String(condition.text)}`;
  if ('region' in condition) return `in ${regionName(condition.region)}: ${describe(condition.when)}`;
  if ('framed' in condition) return `a line below a rule line: ${String(condition.framed)}`;
  if ('not' in condition) return `not(${describe(condition.not)})`;
  return `above the prompt box: ${describe(condition.abovePromptBox)}`;
}

const MAX_EVIDENCE_LINES = 5;

/** The screen lines that made a condition hold (a `has` pattern's line, a `line` match), a few at most. */
function evidence(condition: Condition, screen: Screen, into: string[] = []): string[] {
  if (into.length >= MAX_EVIDENCE_LINES) return into;
  if ('has' in condition) {
    const pattern = condition.has;
    const lower = pattern === pattern.toLowerCase();
    const line = screen.lines.find((text) => (lower ? text.toLowerCase() : text).includes(pattern));
    if (line !== undefined && !into.includes(line)) into.push(line);
  } else if ('line' in condition) {
    const line = screen.lines.find((text) => condition.line.test(text));
    if (line !== undefined && !into.includes(line)) into.push(line);
  } else if ('any' in condition || 'all' in condition) {
    for (const part of 'any' in condition ? condition.any : condition.all) if (holds(part, screen)) evidence(part, screen, into);
  } else if ('confirmation' in condition) {
    const line = screen.lines.find((text) => /do you want|would you like/i.test(text));
    if (line !== undefined) into.push(line);
  } else if ('title' in condition) {
    into.push(`title: ${screen.title}`);
  } else if ('text' in condition) {
    // The line the match starts on (a pattern may span lines).
    const at = condition.text.exec(screen.text)?.index;
    const line = at === undefined ? undefined : screen.text.slice(0, at).split('\n').length - 1;
    const text = line === undefined ? undefined : screen.lines[line];
    if (text !== undefined && !into.includes(text)) into.push(text);
  } else if ('region' in condition) {
    evidence(condition.when, screen.region(condition.region), into);
  } else if ('framed' in condition) {
    const line = framedLine(screen, condition.framed);
    if (line !== undefined && !into.includes(line)) into.push(line);
  } else if ('not' in condition) {
    // What is absent shows nowhere.
  } else {
    evidence(condition.abovePromptBox, screen.abovePromptBox(), into);
  }
  return into;
}

/** Every rule of `agent`'s table against `text`, with what each saw (`agent.explain`); none for a process-only agent. */
export function explainScreen(agent: string, text: string, title = ''): ScreenExplanation | undefined {
  const table = active.tables.get(agent);
  // Known by its process only: no rules, the screen decides nothing.
  if (!table || table.rules.length === 0) return undefined;
  const screen = new Screen(text, title);
  const rules = table.rules.map((rule, index) => {
    const matched = holds(rule.when, screen);
    const condition = `${rule.id === undefined ? '' : `${rule.id}: `}${describe(rule.when)}${rule.keep ? ' (keeps the state as it was)' : ''}`;
    return { index, state: rule.state, condition, matched, evidence: matched ? evidence(rule.when, screen) : [] };
  });
  const first = rules.find((rule) => rule.matched);
  return {
    agent,
    ...(first ? { matchedRule: first.index } : {}),
    rawState: first?.state ?? table.otherwise ?? 'unknown',
    otherwise: table.otherwise ?? 'unknown',
    rules,
  };
}

/** What a pane shows the tracker: its screen and title, and whether its program reads keys yet. */
export interface PaneView {
  text: string;
  title: string;
  /** False while the terminal is in canonical mode; undefined when that cannot be read. Asked only of a drawn prompt (a system call each time). */
  readsKeys(): boolean | undefined;
}

/** A screen no rule matched keeps the state before it this long: a frame drawn in two writes (gemini) shows nothing in between. */
export const FRAME_GAP_MS = 150;
/** …and a working or blocked state this long: a redraw that wipes the spinner or the dialog before drawing it again. */
export const NO_MATCH_HOLD_MS = 1500;

export interface TrackedState {
  state: AgentState;
  /** When a held state should be looked at again. */
  recheckAt?: number;
  /** Why the state is not what the rules say of this screen alone (agent.explain). */
  held?: string;
}

/**
 * A pane's reported state over time, from its screens (docs/protocol.md §10.2): the first
 * rule that holds; a table's `holdWorkingMs` keeping `working` through a short raw `idle`
 * (claude); a screen no rule matched keeping the state before it for a frame's gap, then
 * `unknown` (never idle); a drawn prompt of a CLI that reads raw keys not idle while the
 * terminal is still canonical (it has not started reading).
 */
export class StateTracker {
  private lastWorkingAt = 0;
  private lastMatchAt = -Infinity;
  private reported: AgentState = 'unknown';
  /** A raw idle after working waiting for a quiet screen (idleQuietMs): since when, and the screen then. */
  private quiet: { since: number; first: number; text: string } | undefined;

  constructor(private readonly screens = new ScreenMemo()) {}

  get state(): AgentState {
    return this.reported;
  }

  update(agent: string | undefined, view: PaneView, now: number): TrackedState {
    if (!agent) return { state: (this.reported = 'unknown') };
    const table = active.tables.get(agent);
    if (!table) return { state: (this.reported = 'idle') };
    const screen = this.screens.of(view.text, view.title);
    const rule = firstRule(table, screen);
    if (rule?.keep) {
      this.lastMatchAt = now;
      return { state: this.reported, held: `rule ${rule.id ?? ''} says this screen is not one to read the state from: the state stays as it was` };
    }
    const matched = rule?.state ?? table.otherwise;
    if (matched === undefined) {
      const previous = this.reported;
      const hold = previous === 'idle' ? FRAME_GAP_MS : previous === 'working' || previous === 'blocked' ? NO_MATCH_HOLD_MS : 0;
      if (now - this.lastMatchAt < hold) {
        return { state: previous, recheckAt: this.lastMatchAt + hold, held: `no rule matched this screen: ${previous} is kept for ${hold} ms from the last screen a rule matched` };
      }
      return { state: (this.reported = 'unknown'), held: 'no rule matched this screen: its state is unknown (it may still be starting)' };
    }
    this.lastMatchAt = now;
    if (matched === 'idle' && table.rawInput && view.readsKeys() === false) {
      return { state: (this.reported = 'unknown'), held: 'its prompt is drawn, but its terminal is still in canonical mode: it does not read keys yet' };
    }
    if (matched === 'working') this.lastWorkingAt = now;
    const hold = table.holdWorkingMs ?? 0;
    if (matched === 'idle' && this.reported === 'working' && now - this.lastWorkingAt < hold) {
      return { state: 'working', recheckAt: this.lastWorkingAt + hold, held: `working is held ${hold} ms after its last working screen` };
    }
    const quietMs = table.idleQuietMs;
    if (matched === 'idle' && this.reported === 'working' && quietMs !== undefined) {
      if (!this.quiet || this.quiet.text !== view.text) this.quiet = { since: now, first: this.quiet?.first ?? now, text: view.text };
      const due = Math.min(this.quiet.since + quietMs, this.quiet.first + quietMs * 10);
      if (now < due) return { state: 'working', recheckAt: due, held: `idle counts once its screen stays unchanged ${quietMs} ms` };
    }
    this.quiet = undefined;
    return { state: (this.reported = matched) };
  }
}
