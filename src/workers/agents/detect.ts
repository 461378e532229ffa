/**
 * The one engine for agent rules (rules.ts): which agent a process name
 * means, and which state a screen shows. No agent-specific code here.
 */
import { basename } from 'node:path';
import type { AgentName, AgentState } from '../../protocol/objects.js';
import type { ScreenExplanation } from '../../protocol/thread.js';
import { AGENT_TABLES, type AgentTable, type Condition } from './rules.js';

const TABLES = new Map<AgentName, AgentTable>(AGENT_TABLES.map((table) => [table.agent, table]));
const BY_NAME = new Map<string, AgentName>(AGENT_TABLES.flatMap((table) => table.names.map((name) => [name, table.agent] as const)));
const BY_PACKAGE = new Map<string, AgentName>(AGENT_TABLES.flatMap((table) => (table.packages ?? []).map((pkg) => [pkg, table.agent] as const)));
const PATTERNS = AGENT_TABLES.flatMap((table) => (table.namePatterns ?? []).map((pattern) => ({ pattern, agent: table.agent })));
const INTERPRETERS = new Set(['node', 'bun', 'deno', 'python', 'python3']);
/** Versioned Pythons (`python3.13`) run scripts the same way. */
const VERSIONED_PYTHON = /^python3?\.\d+$/;
const SCRIPT_EXTENSION = /\.(?:[cm]?js|ts|py)$/;
/** The package a script lies in: the last `node_modules/<name>` or `node_modules/@scope/<name>` of its path. */
const PACKAGE_IN_PATH = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//;

function byName(name: string): AgentName | undefined {
  const lower = name.toLowerCase();
  return BY_NAME.get(lower) ?? PATTERNS.find(({ pattern }) => pattern.test(lower))?.agent;
}

/** The agent an interpreter's script is: by its name (an npm bin shim keeps the command's name), else by its package. */
function agentOfScript(script: string): AgentName | undefined {
  const named = byName(basename(script).replace(SCRIPT_EXTENSION, ''));
  if (named) return named;
  const pkg = PACKAGE_IN_PATH.exec(script)?.[1];
  return pkg === undefined ? undefined : BY_PACKAGE.get(pkg.toLowerCase());
}

/**
 * The agent a process is (docs/protocol.md §10.1): its `comm` (which a program may set
 * through its title), the name it was started under (argv[0], whole where comm keeps 15
 * characters), or for an interpreter the script it runs.
 */
export function agentOfProcess(comm: string, argv: readonly string[]): AgentName | undefined {
  const direct = byName(comm) ?? (argv[0] ? byName(basename(argv[0])) : undefined);
  if (direct) return direct;
  const name = comm.toLowerCase();
  if (!INTERPRETERS.has(name) && !VERSIONED_PYTHON.test(name)) return undefined;
  const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
  return script ? agentOfScript(script) : undefined;
}

/** The detector's name for a label a hook reported (`claude-code` is claude), if it knows it. */
export function knownAgent(label: string): AgentName | undefined {
  return byName(label);
}

class Screen {
  readonly lower: string;
  private linesCache: string[] | undefined;
  private promptBoxRegion: Screen | undefined;

  constructor(readonly text: string) {
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
      this.promptBoxRegion = cut === -1 ? this : new Screen(this.lines.slice(0, cut).join('\n'));
    }
    return this.promptBoxRegion;
  }
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
  if ('confirmation' in condition) {
    let at = screen.lower.indexOf('do you want');
    if (at === -1) at = screen.lower.indexOf('would you like');
    if (at === -1) return false;
    const rest = screen.lower.slice(at);
    return rest.includes('yes') || rest.includes('❯');
  }
  return holds(condition.abovePromptBox, screen.abovePromptBox());
}

/** The state the screen shows for `agent`, by its table alone (no hold). */
export function screenState(agent: AgentName, text: string): AgentState {
  const table = TABLES.get(agent);
  if (!table) return 'idle';
  const screen = new Screen(text);
  return table.rules.find((rule) => holds(rule.when, screen))?.state ?? table.otherwise;
}

/** A condition as a person reads it: `has "Working..."`, `line /^> /`, `any(…)`. */
function describe(condition: Condition): string {
  if ('has' in condition) return `has ${JSON.stringify(condition.has)}`;
  if ('any' in condition) return `any(${condition.any.map(describe).join(', ')})`;
  if ('all' in condition) return `all(${condition.all.map(describe).join(', ')})`;
  if ('line' in condition) return `line ${String(condition.line)}`;
  if ('confirmation' in condition) return 'confirmation ("do you want"/"would you like", then "yes" or "❯")';
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
  } else {
    evidence(condition.abovePromptBox, screen.abovePromptBox(), into);
  }
  return into;
}

/** Every rule of `agent`'s table against `text`, with what each saw (`agent.explain`); none for a process-only agent. */
export function explainScreen(agent: AgentName, text: string): ScreenExplanation | undefined {
  const table = TABLES.get(agent);
  // Known by its process only: no rules, the screen decides nothing.
  if (!table || table.rules.length === 0) return undefined;
  const screen = new Screen(text);
  const rules = table.rules.map((rule, index) => {
    const matched = holds(rule.when, screen);
    return { index, state: rule.state, condition: describe(rule.when), matched, evidence: matched ? evidence(rule.when, screen) : [] };
  });
  const first = rules.find((rule) => rule.matched);
  return {
    agent,
    ...(first ? { matchedRule: first.index } : {}),
    rawState: first?.state ?? table.otherwise,
    otherwise: table.otherwise,
    rules,
  };
}

/**
 * A pane's reported state over time: the screen state, with a table's
 * `holdWorkingMs` (claude) keeping `working` through a short raw `idle`.
 * `recheckAt` says when a held state should be looked at again.
 */
export class StateTracker {
  private lastWorkingAt = 0;
  private reported: AgentState = 'unknown';

  get state(): AgentState {
    return this.reported;
  }

  update(agent: AgentName | undefined, text: string, now: number): { state: AgentState; recheckAt?: number } {
    if (!agent) return { state: (this.reported = 'unknown') };
    const raw = screenState(agent, text);
    if (raw === 'working') this.lastWorkingAt = now;
    const hold = TABLES.get(agent)?.holdWorkingMs ?? 0;
    if (raw === 'idle' && this.reported === 'working' && now - this.lastWorkingAt < hold) {
      return { state: 'working', recheckAt: this.lastWorkingAt + hold };
    }
    return { state: (this.reported = raw) };
  }
}
