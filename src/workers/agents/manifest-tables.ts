/**
 * A user's agent manifests (herdr's format, docs/protocol.md §10.8) turned into the rule
 * tables detection already runs (rules.ts), so a described agent is detected exactly as a
 * built-in one: a manifest for an agent herdr knows replaces that agent's screen rules
 * (its process names, packages and prompt profile stay); a manifest for any other agent
 * adds a table whose process names are its id and aliases. Patterns become RE2 objects:
 * what a user writes never runs on a backtracking engine.
 */
import { basename } from 'node:path';
import RE2 from 're2';
import { type AgentManifestFile, type ManifestGate, type ManifestRule, re2Source } from '../../protocol/agent-manifest.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentTableSummary } from '../../protocol/thread.js';
import { agentTables, useAgentTables } from './detect.js';
import { AGENT_TABLES, type AgentTable, type Condition, type Rule } from './rules.js';

/** What a gate asks, as one condition: all its matchers, all its `all`s, one of its `any`s, none of its `not`s. */
function gateCondition(gate: ManifestGate): Condition {
  const parts: Condition[] = [
    // herdr's `contains` ignores case: a lower-case pattern is looked for in the lower-cased screen (rules.ts `has`).
    ...gate.contains.map((text): Condition => ({ has: text.toLowerCase() })),
    ...gate.regex.map((pattern): Condition => ({ text: new RE2(re2Source(pattern)) })),
    ...gate.line_regex.map((pattern): Condition => ({ line: new RE2(re2Source(pattern)) })),
    ...gate.all.map(gateCondition),
    ...(gate.any.length > 0 ? [{ any: gate.any.map(gateCondition) }] : []),
    ...gate.not.map((negated): Condition => ({ not: gateCondition(negated) })),
  ];
  return parts.length === 1 && parts[0] ? parts[0] : { all: parts };
}

function ruleOf(rule: ManifestRule): Rule {
  const when = gateCondition(rule);
  return {
    state: rule.state,
    when: rule.region.kind === 'whole_recent' ? when : { region: rule.region, when },
    id: rule.id,
    ...(rule.skip_state_update ? { keep: true } : {}),
  };
}

/** The rules in the order they decide: herdr's highest priority first, the first written among equals. */
function rulesOf(rules: readonly ManifestRule[]): Rule[] {
  return rules
    .map((rule, order) => ({ rule, order }))
    .sort((a, b) => b.rule.priority - a.rule.priority || a.order - b.order)
    .map(({ rule }) => ruleOf(rule));
}

/** Which built-in agent a name is (its label, a process name or a name pattern). */
function builtInNamed(name: string): string | undefined {
  const lower = name.toLowerCase();
  return AGENT_TABLES.find((table) => table.agent === lower || table.names.includes(lower) || table.namePatterns?.some((pattern) => pattern.test(lower)))?.agent;
}

const refuse = (file: AgentManifestFile, reason: string) => new ProtocolError('invalid_agent_manifest', `${file.path}: ${reason}`);

/**
 * The built-in tables with `files` applied, or a ProtocolError naming the first file that does not
 * fit: two files for one agent, a file named after another agent, an id and aliases that name two
 * agents, a new agent with a process name another file already gave.
 */
export function tablesWith(files: readonly AgentManifestFile[]): AgentTable[] {
  const overrides = new Map<string, { file: AgentManifestFile; rules: Rule[]; otherwise: 'idle' }>();
  const added: AgentTable[] = [];
  const nameOwners = new Map<string, string>();
  for (const file of files) {
    const { manifest } = file;
    const stem = basename(file.path).replace(/\.toml$/i, '').toLowerCase();
    const names = [...new Set([manifest.id, ...manifest.aliases].map((name) => name.toLowerCase()))];
    const rules = rulesOf(manifest.rules);
    // As herdr reads its manifests (its bundled ones count on it): a screen no rule reads is idle. A manifest that
    // wants `unknown` there says so with a last rule of its own (state "unknown", `regex = ['']`, the lowest priority).
    const otherwise = 'idle' as const;
    const known = [...new Set(names.flatMap((name) => builtInNamed(name) ?? []))];
    if (known.length > 1) throw refuse(file, `its id and aliases name ${known.join(' and ')}, more than one agent`);
    const builtIn = known[0];
    if (builtIn !== undefined) {
      if (builtInNamed(stem) !== builtIn && !names.includes(stem)) throw refuse(file, `it is for ${builtIn}: name the file ${builtIn}.toml`);
      const other = overrides.get(builtIn);
      if (other) throw refuse(file, `${other.file.path} is for ${builtIn} too`);
      overrides.set(builtIn, { file, rules, otherwise });
      continue;
    }
    if (!names.includes(stem)) throw refuse(file, `its id is ${JSON.stringify(manifest.id)}: name the file ${manifest.id}.toml`);
    // A name with `:` is a hook source's (herdr's `herdr:pi`), never a process's.
    const processNames = names.filter((name) => !name.includes(':'));
    for (const name of processNames) {
      const owner = nameOwners.get(name);
      if (owner !== undefined) throw refuse(file, `${owner} gives the name ${JSON.stringify(name)} to its agent too`);
      nameOwners.set(name, file.path);
    }
    added.push({
      agent: manifest.id,
      names: processNames,
      rules,
      otherwise,
      manifest: { path: file.path, ...(manifest.version !== undefined ? { version: manifest.version } : {}), added: true },
    });
  }
  const tables = AGENT_TABLES.map((table): AgentTable => {
    const override = overrides.get(table.agent);
    if (!override) return table;
    const { otherwise: _builtInOtherwise, ...rest } = table;
    const { version } = override.file.manifest;
    return {
      ...rest,
      rules: override.rules,
      otherwise: override.otherwise,
      manifest: { path: override.file.path, ...(version !== undefined ? { version } : {}), added: false },
    };
  });
  return [...tables, ...added];
}

/** The tables in use now, as `server.agent_manifests` lists them: every table with screen rules, and every manifest's. */
export function tableSummaries(): AgentTableSummary[] {
  return agentTables()
    .filter((table) => table.rules.length > 0 || table.manifest)
    .map((table) => ({
      agent: table.agent,
      source: table.manifest?.path ?? 'bundled',
      added: table.manifest?.added ?? false,
      ...(table.manifest?.version !== undefined ? { version: table.manifest.version } : {}),
      names: [...table.names, ...(table.namePatterns ?? []).map(String)],
      rules: table.rules.length,
    }));
}

/** Detection uses `files` from now on (all or none: a set that does not fit throws, and the tables stay as they were). */
export function applyManifests(files: readonly AgentManifestFile[]): AgentTableSummary[] {
  useAgentTables(tablesWith(files));
  return tableSummaries();
}
