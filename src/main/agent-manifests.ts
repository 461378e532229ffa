/**
 * The user's agent manifests (docs/protocol.md §10.8): read from their directory at start and
 * on `server.reload_agent_manifests`, checked here, then sent to every shard, which turns them
 * into rule tables. A reload is all or nothing: a file that does not parse or check, or a set
 * the shards refuse, leaves the manifests in use as they were, and the answer names the file.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentManifestFile, MANIFEST_LIMITS, ManifestError, parseAgentManifest } from '../protocol/agent-manifest.js';
import { ProtocolError } from '../protocol/errors.js';
import type { AgentManifestInfo } from '../protocol/methods/server-config.js';
import type { AgentTableSummary } from '../protocol/thread.js';
import type { ShardPool } from './shard-pool.js';

/** A manifest file that could not be used, and why. */
export interface ManifestProblem {
  path: string;
  reason: string;
}

/** Every `*.toml` of `dir`, read and checked, in name order; a missing directory has none. */
export function readManifestDir(dir: string): { files: AgentManifestFile[]; problems: ManifestProblem[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.toml')).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { files: [], problems: [] };
    return { files: [], problems: [{ path: dir, reason: `the directory cannot be read (${code ?? (error as Error).message})` }] };
  }
  const files: AgentManifestFile[] = [];
  const problems: ManifestProblem[] = [];
  if (names.length > MANIFEST_LIMITS.files) return { files, problems: [{ path: dir, reason: `it holds ${names.length} manifests (at most ${MANIFEST_LIMITS.files})` }] };
  for (const name of names) {
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (!stat.isFile()) continue;
      if (stat.size > MANIFEST_LIMITS.fileBytes) throw new ManifestError(`larger than ${MANIFEST_LIMITS.fileBytes} bytes`);
      files.push({ path, manifest: parseAgentManifest(readFileSync(path, 'utf8')) });
    } catch (error) {
      const reason = error instanceof ManifestError ? error.message : `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      problems.push({ path, reason });
    }
  }
  return { files, problems };
}

/** What the shards answered, as herdr's AgentManifestInfo. */
function infoOf(table: AgentTableSummary): AgentManifestInfo {
  return {
    agent: table.agent,
    source: table.source,
    source_kind: table.added ? 'local' : table.source === 'bundled' ? 'bundled' : 'local override',
    ...(table.version !== undefined ? { active_version: table.version } : {}),
    // No remote manifests here: nothing a local file could shadow.
    local_override_shadowing_remote: false,
    process_names: table.names,
    rules: table.rules,
  };
}

export class AgentManifests {
  /** The tables the shards use, as they last answered. */
  private tables: AgentTableSummary[] = [];
  /** Files in the directory that are not in use (they did not check at the last read). */
  private problems: ManifestProblem[] = [];

  constructor(
    /** undefined: no manifests are read (`herdr server --no-agent-manifests`). */
    readonly dir: string | undefined,
    private readonly pool: ShardPool,
  ) {}

  /** At start, before any pane: the files that check are used, the others are logged and listed with a warning. */
  async start(log: (message: string) => void): Promise<void> {
    const { files, problems } = this.read();
    this.problems = problems;
    for (const problem of problems) log(`agent manifest ${problem.path} not used: ${problem.reason}`);
    try {
      this.tables = await this.pool.setAgentManifests(files);
    } catch (error) {
      if (!(error instanceof ProtocolError && error.code === 'invalid_agent_manifest')) throw error;
      // The set does not fit together (two files for one agent): none of it is used.
      const reason = (error as Error).message;
      log(`agent manifests not used: ${reason}`);
      this.problems.push(...files.map((file) => ({ path: file.path, reason: reason.startsWith(file.path) ? reason.slice(file.path.length + 2) : `not used with the others: ${reason}` })));
      this.tables = await this.pool.setAgentManifests([]);
    }
    const added = this.tables.filter((table) => table.source !== 'bundled');
    if (added.length > 0) log(`agent manifests: ${added.map((table) => `${table.agent} (${table.source})`).join(', ')}`);
  }

  /** `server.reload_agent_manifests`: the directory read again and used whole, or nothing changed. */
  async reload(): Promise<AgentManifestInfo[]> {
    const { files, problems } = this.read();
    const first = problems[0];
    if (first) {
      this.problems = problems;
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more file${problems.length > 2 ? 's' : ''})` : '';
      throw new ProtocolError('invalid_agent_manifest', `${first.path}: ${first.reason}${more}; the manifests in use did not change`);
    }
    try {
      this.tables = await this.pool.setAgentManifests(files);
    } catch (error) {
      if (error instanceof ProtocolError && error.code === 'invalid_agent_manifest') {
        const path = files.find((file) => error.message.startsWith(`${file.path}: `))?.path ?? this.dir ?? '';
        this.problems = [{ path, reason: error.message.slice(path.length + 2) }];
        throw new ProtocolError('invalid_agent_manifest', `${error.message}; the manifests in use did not change`);
      }
      throw error;
    }
    this.problems = [];
    return this.list();
  }

  /** `server.agent_manifests`: every table in use; a file not in use says why on the agent it names. */
  list(): AgentManifestInfo[] {
    const infos = this.tables.map(infoOf);
    for (const problem of this.problems) {
      const stem = problem.path.slice(problem.path.lastIndexOf('/') + 1).replace(/\.toml$/, '').toLowerCase();
      const named = infos.find((info) => info.agent === stem || info.process_names.includes(stem));
      const warning = `${problem.path} is not in use: ${problem.reason}`;
      if (named) named.warning = named.warning === undefined ? warning : `${named.warning}; ${warning}`;
      else infos.push({ agent: stem, source: problem.path, source_kind: 'local', local_override_shadowing_remote: false, warning, process_names: [], rules: 0 });
    }
    return infos;
  }

  private read(): { files: AgentManifestFile[]; problems: ManifestProblem[] } {
    return this.dir === undefined ? { files: [], problems: [] } : readManifestDir(this.dir);
  }
}
