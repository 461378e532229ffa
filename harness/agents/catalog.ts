/**
 * The real agent CLIs, pinned in agent-clis.json and installed by `npm run agents:install`
 * (scripts/install-agents.js) into a cache outside the repo: where each one is, or why a
 * test that needs it must skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type RealAgent = 'claude' | 'codex' | 'opencode' | 'pi' | 'qwen' | 'gemini';

export interface AgentCli {
  agent: RealAgent;
  package: string;
  version: string;
  bin: string;
}

const PINS = fileURLToPath(new URL('../../../harness/agents/agent-clis.json', import.meta.url));

export const AGENT_CLIS: readonly AgentCli[] = (JSON.parse(readFileSync(PINS, 'utf8')) as { clis: AgentCli[] }).clis;

/** Where scripts/install-agents.js puts them (the same rule, kept in step). */
export function agentCache(): string {
  return process.env.HERDR_AGENT_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'herdr', 'agents');
}

export function cliOf(agent: RealAgent): AgentCli {
  const cli = AGENT_CLIS.find((entry) => entry.agent === agent);
  if (!cli) throw new Error(`${agent} is not in harness/agents/agent-clis.json`);
  return cli;
}

/** The folder of the CLI's `node_modules/.bin`, for the pane's PATH. */
export function binDir(cli: AgentCli): string {
  return join(agentCache(), `${cli.agent}-${cli.version}`, 'node_modules', '.bin');
}

/** Why a test of this CLI cannot run here, or false when it can (the `skip` option of node:test). */
export function skipUnlessInstalled(cli: AgentCli): string | false {
  if (existsSync(join(binDir(cli), cli.bin))) return false;
  const error = join(agentCache(), `${cli.agent}-${cli.version}`, 'install-error.txt');
  const why = existsSync(error) ? readFileSync(error, 'utf8').split('\n').find((line) => line.trim() !== '') : undefined;
  return `${cli.package}@${cli.version} is not installed in ${agentCache()}: ${why ?? 'run `npm run agents:install`'}`;
}
