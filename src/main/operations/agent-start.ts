/**
 * `agent.start` (docs/protocol.md §13.4): an agent of a known kind, or any argv, in a
 * new workspace (its program exec'd directly, no shell) or typed as one quoted line
 * into a pane whose shell is idle in front; then, unless told not to wait, the answer
 * comes when the agent is ready for input (idle), with a deadline. The instance id and
 * name are given out at the start, so the agent is addressable before it shows up.
 */
import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { readProcStat } from '../../os/proc-stat.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentInfo } from '../../protocol/objects.js';
import { DEFAULT_AGENT_START_TIMEOUT_MS } from '../../protocol/methods/agents.js';
import { AGENT_PROGRAMS, isAgentKind } from '../agents/agent-kinds.js';
import { agentStatus } from '../agents/agent-status.js';
import { waitOnAgent } from '../agents/agent-waits.js';
import { checkAgentName, hostsAgent } from '../agents/occupants.js';
import { hasControlCharacter, shellLine } from '../agents/shell-words.js';
import type { Connection } from '../connection.js';
import type { EventBatch } from '../event-hub.js';
import { errorNaming } from '../ids.js';
import type { PaneRecord } from '../registry.js';
import type { PaneSpawner } from './pane-spawner.js';
import type { WorkspaceOperations } from './workspaces.js';
import type { AgentOperationParts, AgentOperations } from './agents.js';

export interface StartRequest {
  name: string | undefined;
  kind: string | undefined;
  args: readonly string[] | undefined;
  command: readonly string[] | undefined;
  paneId: string | undefined;
  cwd: string | undefined;
  env: Record<string, string> | undefined;
  label: string | undefined;
  focus: boolean;
  timeoutMs: number | undefined;
  wait: boolean;
}

export interface StartParts extends AgentOperationParts {
  workspaces: WorkspaceOperations;
  spawner: PaneSpawner;
}

/** The argv to run and the kind it is shown as until the agent itself shows up. */
function launchOf(request: StartRequest): { argv: string[]; kind: string } {
  if ((request.kind === undefined) === (request.command === undefined)) {
    throw new ProtocolError('invalid_request', 'agent.start takes either kind (a known agent) or command (any argv), not both or neither');
  }
  const args = request.args ?? [];
  const bad = [...args, ...(request.command ?? [])].find(hasControlCharacter);
  if (bad !== undefined) throw new ProtocolError('invalid_agent_argument', `argument ${JSON.stringify(bad)} has a control character`);
  if (request.command) return { argv: [...request.command, ...args], kind: basename(request.command[0] ?? 'agent') };
  const kind = (request.kind ?? '').trim().toLowerCase();
  if (!isAgentKind(kind)) {
    throw new ProtocolError('unsupported_agent_kind', `unknown agent kind ${JSON.stringify(request.kind)}; known: ${Object.keys(AGENT_PROGRAMS).join(', ')}`);
  }
  return { argv: [AGENT_PROGRAMS[kind], ...args], kind };
}

export async function startAgent(
  parts: StartParts,
  agents: AgentOperations,
  request: StartRequest,
  context: { connection: Connection; batch: EventBatch },
): Promise<{ agent: AgentInfo; argv: string[] }> {
  const { registry } = parts;
  if (request.name !== undefined) checkAgentName(registry, request.name);
  const { argv, kind } = launchOf(request);
  const start = { instanceId: randomUUID(), name: request.name, kind };
  let pane: PaneRecord;
  if (request.paneId !== undefined) {
    if (request.cwd !== undefined || request.env !== undefined || request.label !== undefined) {
      throw new ProtocolError('invalid_request', 'cwd, env and label are for a new pane; a given pane keeps its shell\'s');
    }
    pane = registry.resolvePane(request.paneId);
    checkIdleShell(pane);
    pane.occupant.start = start;
    try {
      await parts.panes.input(pane, shellLine(argv), ['Enter'], false);
    } catch (error) {
      if (pane.occupant.start === start) pane.occupant.start = undefined;
      throw error;
    }
  } else {
    const cwd = resolve(request.cwd ?? process.cwd());
    const problem = parts.spawner.startProblem({ command: argv, env: request.env }, cwd);
    if (problem) throw new ProtocolError('agent_start_failed', `cannot start ${kind}: ${problem}`);
    const workspace = await parts.workspaces.create(
      { cwd, command: argv, env: request.env, cols: undefined, rows: undefined, focus: request.focus, label: request.label ?? request.name },
      context.batch,
    );
    const root = workspace.panes[0];
    if (!root) throw new ProtocolError('agent_start_failed', `the ${kind} pane went away as it started`);
    pane = root;
    pane.label = request.label;
    // Set before any report of the shard can arrive: its messages wait for this task to end.
    pane.occupant.start = start;
  }
  const timeoutMs = request.timeoutMs ?? DEFAULT_AGENT_START_TIMEOUT_MS;
  if (!request.wait) {
    // Nobody waits, but a launch that never shows up must not mark the pane for good.
    setTimeout(() => {
      if (pane.occupant.start === start) pane.occupant.start = undefined;
    }, timeoutMs).unref();
    return { agent: agents.info(pane), argv };
  }
  const agent = await waitUntilReady(parts, agents, pane, start.instanceId, timeoutMs, context.connection);
  return { agent, argv };
}

/** A pane agent.start may type into: no agent in it, and its shell in front (no command running). */
function checkIdleShell(pane: PaneRecord): void {
  if (hostsAgent(pane)) throw errorNaming('agent_pane_busy', (name) => `pane ${name(pane)} already hosts an agent`);
  const front = readProcStat(pane.pid)?.tpgid;
  if (front !== pane.pid) throw errorNaming('agent_pane_busy', (name) => `pane ${name(pane)} is running a command; agent.start types into an idle shell`);
}

function waitUntilReady(parts: StartParts, agents: AgentOperations, pane: PaneRecord, instanceId: string, timeoutMs: number, connection: Connection): Promise<AgentInfo> {
  return waitOnAgent<AgentInfo>(parts, connection, {
    pane,
    timeoutMs,
    timedOut: () => errorNaming('timeout', (name) => `the agent in pane ${name(pane)} was not ready for input within ${timeoutMs} ms; the pane is left as it is`),
    onTimeout: () => {
      if (pane.occupant.start?.instanceId === instanceId) pane.occupant.start = undefined;
    },
    look: (event) => {
      if (parts.registry.paneByUid(pane.uid) !== pane) {
        const exit = event?.line.event === 'pane_exited' ? (event.line.data as { exit_code?: number }).exit_code : undefined;
        const how = exit === undefined ? 'its pane closed' : `it exited with code ${exit}`;
        return { fail: errorNaming('agent_start_failed', (name) => `the agent in pane ${name(pane)} did not get ready: ${how}`) };
      }
      if (pane.occupant.start?.instanceId === instanceId) return undefined;
      if (pane.occupant.instanceId !== instanceId) {
        return { fail: errorNaming('agent_start_failed', (name) => `the agent started in pane ${name(pane)} left before it was ready for input`) };
      }
      const status = agentStatus(pane);
      if (status === 'blocked') {
        const question = pane.occupant.message ? `: ${pane.occupant.message}` : '';
        return { fail: errorNaming('agent_blocked', (name) => `the agent in pane ${name(pane)} is blocked at start${question}; answer it with agent.send_keys`) };
      }
      return status === 'idle' || status === 'done' ? { settle: agents.info(pane) } : undefined;
    },
  });
}
