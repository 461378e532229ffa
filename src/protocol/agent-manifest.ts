/**
 * herdr's agent detection manifests (docs/agents.md "Your own agents", docs/protocol.md §10.8):
 * a TOML file per agent whose rules read its state off the screen. This module reads one
 * file's text into checked data, with herdr's limits; nothing here runs a rule. The main
 * thread reads the files and refuses a bad one before any shard sees it; each shard turns
 * the data into its rule tables (workers/agents/manifest-tables.ts). Patterns are checked
 * with RE2, which the shards also run them with: a user's pattern can never backtrack.
 */
import RE2 from 're2';
import { TomlDate, TomlError, parse as parseToml } from 'smol-toml';
import { z } from 'zod';

/** The regions and rule features herdr's engine 3 has; a manifest asking for a newer engine is refused. */
export const MANIFEST_ENGINE_VERSION = 3;

/** herdr's bounds on one manifest: they keep a file's cost on every screen change small. */
export const MANIFEST_LIMITS = {
  rules: 128,
  depth: 8,
  gates: 512,
  matchersPerGate: 32,
  matchers: 1024,
  matcherChars: 512,
  /** Ours: a file this big is not a manifest. */
  fileBytes: 256 * 1024,
  /** Ours: the directory is read on the main thread, so its size is bounded. */
  files: 256,
} as const;

/** Where on the screen a rule looks (herdr's `region`). */
export type Region =
  | { kind: 'whole_recent' }
  | { kind: 'bottom_lines' | 'bottom_non_empty_lines' | 'top_non_empty_lines'; count: number }
  | {
      kind:
        | 'after_last_prompt_marker'
        | 'before_current_prompt_marker'
        | 'whole_recent_without_current_prompt_marker'
        | 'current_prompt_block_marker'
        | 'after_current_prompt_block_marker'
        | 'prompt_box_body'
        | 'above_prompt_box'
        | 'last_non_empty_above_prompt_box'
        | 'after_last_horizontal_rule'
        | 'osc_title'
        | 'osc_progress';
    };

const NAMED_REGIONS = new Set<string>([
  'whole_recent',
  'after_last_prompt_marker',
  'before_current_prompt_marker',
  'whole_recent_without_current_prompt_marker',
  'current_prompt_block_marker',
  'after_current_prompt_block_marker',
  'prompt_box_body',
  'above_prompt_box',
  'last_non_empty_above_prompt_box',
  'after_last_horizontal_rule',
  'osc_title',
  'osc_progress',
]);
/** `top_non_empty_lines(n)` came with engine 3; its count has no leading zero and fits 16 bits. */
const TOP_LINES_ENGINE = 3;
const MAX_TOP_LINES = 65_535;

/** A region's spec as written (`bottom_lines(5)`), or undefined when herdr's engine has no such region. */
export function parseRegion(spec: string): Region | undefined {
  const name = spec.trim();
  if (NAMED_REGIONS.has(name)) return { kind: name } as Region;
  const counted = /^(bottom_lines|bottom_non_empty_lines|top_non_empty_lines)\((\d+)\)$/.exec(name);
  if (!counted) return undefined;
  const kind = counted[1] as 'bottom_lines' | 'bottom_non_empty_lines' | 'top_non_empty_lines';
  const digits = counted[2] ?? '';
  const count = Number(digits);
  if (!Number.isSafeInteger(count)) return undefined;
  if (kind === 'top_non_empty_lines' && (digits.startsWith('0') || count > MAX_TOP_LINES)) return undefined;
  return { kind, count };
}

/** A region as a person writes it. */
export function regionName(region: Region): string {
  return 'count' in region ? `${region.kind}(${region.count})` : region.kind;
}

/**
 * A gate: every matcher in it must hold (`contains` case-insensitive, `regex` against the whole
 * region, `line_regex` against some line of it), every `all` gate, one of the `any` gates (when
 * there are any), and none of the `not` gates.
 */
export interface ManifestGate {
  all: ManifestGate[];
  any: ManifestGate[];
  not: ManifestGate[];
  contains: string[];
  regex: string[];
  line_regex: string[];
}

export const MANIFEST_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type ManifestState = (typeof MANIFEST_STATES)[number];

export interface ManifestRule extends ManifestGate {
  id: string;
  /** Absent: `unknown`. */
  state: ManifestState;
  /** The highest priority among the rules that hold decides; among equals, the first written. */
  priority: number;
  region: Region;
  visible_idle: boolean;
  visible_blocker: boolean;
  visible_working: boolean;
  /** The screen is one the state must not be read from (a transcript viewer): the state stays as it was. */
  skip_state_update: boolean;
}

export interface AgentManifest {
  /** The agent's label: one herdr knows (its rules are replaced), or a new agent's. */
  id: string;
  version?: string;
  min_engine_version?: number;
  /** More names of the agent: herdr's labels for it; for a new agent, also the names its process goes by. */
  aliases: string[];
  rules: ManifestRule[];
}

/** One manifest file as the main thread read it: what shards are sent (plain data, cloned across threads). */
export interface AgentManifestFile {
  /** Its absolute path. */
  path: string;
  manifest: AgentManifest;
}

const matchers = z.array(z.string()).optional();
const gateFields = {
  contains: matchers,
  regex: matchers,
  line_regex: matchers,
};
interface RawGate {
  all?: RawGate[] | undefined;
  any?: RawGate[] | undefined;
  not?: RawGate[] | undefined;
  contains?: string[] | undefined;
  regex?: string[] | undefined;
  line_regex?: string[] | undefined;
}
const rawGate: z.ZodType<RawGate> = z.lazy(() =>
  z.strictObject({ all: z.array(rawGate).optional(), any: z.array(rawGate).optional(), not: z.array(rawGate).optional(), ...gateFields }),
);
/** Dotted numbers (`2026.06.10.1`), as herdr's versions are. */
const version = z.string().trim().regex(/^\d+(?:\.\d+)*$/, 'must be dotted numbers (2026.06.10.1)');
/** A label: what agent.list and events name the agent by. */
const agentId = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be 1–64 of a-z, 0-9, ".", "_", "-", starting with a letter or digit');
/** A name a process may go by (`kimi code` has a space); a name with `:` is a hook source's (`herdr:pi`). */
const alias = z.string().min(1).max(64).regex(/^[^\p{Cc}]+$/u, 'must have no control characters');
const rawManifest = z.strictObject({
  id: agentId,
  version: version.optional(),
  min_engine_version: z.number().int().min(0).optional(),
  // Ignored, as herdr ignores it; a TOML date is taken as well as a string.
  updated_at: z.union([z.string(), z.instanceof(TomlDate)]).optional(),
  aliases: z.array(alias).optional(),
  rules: z
    .array(
      z.strictObject({
        id: z.string(),
        state: z.enum(MANIFEST_STATES).optional(),
        priority: z.number().int().min(-(2 ** 31)).max(2 ** 31 - 1).optional(),
        region: z.string().optional(),
        visible_idle: z.boolean().optional(),
        visible_blocker: z.boolean().optional(),
        visible_working: z.boolean().optional(),
        skip_state_update: z.boolean().optional(),
        all: z.array(rawGate).optional(),
        any: z.array(rawGate).optional(),
        not: z.array(rawGate).optional(),
        ...gateFields,
      }),
    )
    .optional(),
});

/** Unicode properties herdr's regex syntax has and RE2's lacks, as RE2 classes: letters and letter numbers. */
const PROPERTY_CLASSES: Record<string, string> = { alphabetic: '\\p{L}\\p{Nl}', alpha: '\\p{L}\\p{Nl}' };

/**
 * A manifest pattern in RE2's syntax: herdr's `\p{Alphabetic}` (which its bundled manifests use)
 * becomes the letters and letter numbers RE2 knows, inside a class or as one. Everything else
 * is passed on as written; a pattern RE2 still does not take is the manifest's fault.
 */
export function re2Source(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const property = /^\\p\{([A-Za-z_]+)\}/.exec(pattern.slice(i));
      const replacement = property ? PROPERTY_CLASSES[(property[1] ?? '').toLowerCase()] : undefined;
      if (property && replacement !== undefined) {
        out += inClass ? replacement : `[${replacement}]`;
        i += property[0].length - 1;
        continue;
      }
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (char === '[' && !inClass) {
      inClass = true;
      out += char;
      // A `]` right after `[` or `[^` is a member, not the end.
      const negated = pattern[i + 1] === '^';
      if (negated) out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
      continue;
    }
    if (char === ']' && inClass) inClass = false;
    out += char;
  }
  return out;
}

/** Why a manifest is refused: one line, without the file (the caller names it). */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

function gateOf(raw: RawGate): ManifestGate {
  return {
    all: (raw.all ?? []).map(gateOf),
    any: (raw.any ?? []).map(gateOf),
    not: (raw.not ?? []).map(gateOf),
    contains: raw.contains ?? [],
    regex: raw.regex ?? [],
    line_regex: raw.line_regex ?? [],
  };
}

const positive = (gate: ManifestGate) => gate.contains.length + gate.regex.length + gate.line_regex.length + gate.all.length + gate.any.length > 0;

/** herdr's checks of a rule's gates: depth, counts, lengths, a positive matcher in each gate, patterns RE2 takes. */
class GateCheck {
  private gates = 0;
  private matchers = 0;

  check(gate: ManifestGate, where: string, depth: number, negated: boolean): void {
    if (depth > MANIFEST_LIMITS.depth) throw new ManifestError(`${where} nests deeper than ${MANIFEST_LIMITS.depth} gates`);
    if (++this.gates > MANIFEST_LIMITS.gates) throw new ManifestError(`more than ${MANIFEST_LIMITS.gates} gates in the manifest`);
    const direct = [...gate.contains, ...gate.regex, ...gate.line_regex];
    if (direct.length > MANIFEST_LIMITS.matchersPerGate) throw new ManifestError(`${where} has ${direct.length} matchers (at most ${MANIFEST_LIMITS.matchersPerGate} in a gate)`);
    this.matchers += direct.length;
    if (this.matchers > MANIFEST_LIMITS.matchers) throw new ManifestError(`more than ${MANIFEST_LIMITS.matchers} matchers in the manifest`);
    const long = direct.find((text) => [...text].length > MANIFEST_LIMITS.matcherChars);
    if (long !== undefined) throw new ManifestError(`${where} has a matcher longer than ${MANIFEST_LIMITS.matcherChars} characters`);
    // A `not` gate may hold only `not`s; any other gate needs something that must be there.
    if (negated ? !positive(gate) && gate.not.length === 0 : !positive(gate)) {
      throw new ManifestError(negated ? `${where} is an empty not gate` : `${where} has no matcher that must hold (contains, regex, line_regex, all or any)`);
    }
    for (const [field, patterns] of [['regex', gate.regex], ['line_regex', gate.line_regex]] as const) {
      for (const pattern of patterns) {
        try {
          new RE2(re2Source(pattern));
        } catch (error) {
          throw new ManifestError(`${where}: ${field} ${JSON.stringify(pattern)} is not a pattern RE2 takes: ${(error as Error).message}`);
        }
      }
    }
    gate.all.forEach((nested, i) => this.check(nested, `${where} all[${i}]`, depth + 1, negated));
    gate.any.forEach((nested, i) => this.check(nested, `${where} any[${i}]`, depth + 1, negated));
    gate.not.forEach((nested, i) => this.check(nested, `${where} not[${i}]`, depth + 1, true));
  }
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a manifest';
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * A manifest file's text as checked data; throws ManifestError with the reason. Which agent it
 * is for, and whether its file is named after it, the shards decide: they know the agents'
 * names (workers/agents/manifest-tables.ts).
 */
export function parseAgentManifest(text: string): AgentManifest {
  if (Buffer.byteLength(text) > MANIFEST_LIMITS.fileBytes) throw new ManifestError(`larger than ${MANIFEST_LIMITS.fileBytes} bytes`);
  let document: unknown;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) throw new ManifestError(`not TOML: line ${error.line}, column ${error.column}: ${error.message.split('\n')[0] ?? ''}`);
    throw new ManifestError(`not TOML: ${(error as Error).message}`);
  }
  const parsed = rawManifest.safeParse(document);
  if (!parsed.success) throw new ManifestError(issueText(parsed.error));
  const raw = parsed.data;
  const engine = raw.min_engine_version;
  if (engine !== undefined && engine > MANIFEST_ENGINE_VERSION) throw new ManifestError(`it needs detection engine ${engine}; this server has engine ${MANIFEST_ENGINE_VERSION}`);
  const rawRules = raw.rules ?? [];
  if (rawRules.length === 0) throw new ManifestError('it has no rules');
  if (rawRules.length > MANIFEST_LIMITS.rules) throw new ManifestError(`it has ${rawRules.length} rules (at most ${MANIFEST_LIMITS.rules})`);
  const gates = new GateCheck();
  const rules = rawRules.map((rule, index): ManifestRule => {
    const where = `rule ${JSON.stringify(rule.id)}`;
    if (rule.id.trim() === '') throw new ManifestError(`rules[${index}] has an empty id`);
    const regionSpec = rule.region ?? 'whole_recent';
    const region = parseRegion(regionSpec);
    if (!region) throw new ManifestError(`${where}: no region ${JSON.stringify(regionSpec)}`);
    if (region.kind === 'top_non_empty_lines' && engine !== undefined && engine < TOP_LINES_ENGINE) {
      throw new ManifestError(`${where}: top_non_empty_lines needs min_engine_version ${TOP_LINES_ENGINE} or none`);
    }
    const state = rule.state ?? 'unknown';
    const visible = { visible_idle: rule.visible_idle ?? false, visible_blocker: rule.visible_blocker ?? false, visible_working: rule.visible_working ?? false };
    const skip = rule.skip_state_update ?? false;
    if (skip && state !== 'unknown') throw new ManifestError(`${where}: skip_state_update needs state = "unknown"`);
    if (skip && (visible.visible_idle || visible.visible_blocker || visible.visible_working)) throw new ManifestError(`${where}: skip_state_update with a visible_* flag`);
    const gate = gateOf(rule);
    gates.check(gate, where, 0, false);
    return { id: rule.id, state, priority: rule.priority ?? 0, region, ...visible, skip_state_update: skip, ...gate };
  });
  const aliases = raw.aliases ?? [];
  return {
    id: raw.id,
    ...(raw.version !== undefined ? { version: raw.version } : {}),
    ...(engine !== undefined ? { min_engine_version: engine } : {}),
    aliases,
    rules,
  };
}
