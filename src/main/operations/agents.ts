/**
 * What the agent API's requests do (docs/protocol.md §13), on top of the pane
 * operations a client could call itself: an agent is resolved from its target to the
 * pane that hosts it and pinned to that occupant; reads and focus count as looking
 * (a `done` agent turns `idle`); waits are the server's own (agents/agent-waits.ts).
 */
import type { AgentStatus } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentExplanationInfo, AgentInfo, PaneRead } from '../../protocol/objects.js';
import type { ReadWindow } from '../../protocol/read-window.js';
import type { AgentExplanation } from '../../protocol/thread.js';
import { agentStatus, lookedAt } from '../agents/agent-status.js';
import { type AgentWaitParts, waitOnAgent } from '../agents/agent-waits.js';
import { type ResolvedAgent, checkAgentName, hostsAgent, resolveAgent, stillThere } from '../agents/occupants.js';
import { paneUpdated } from '../change-events.js';
import type { Connection } from '../connection.js';
import type { EventBatch } from '../event-hub.js';
import { withFocusEvents } from '../focus-events.js';
import { currentPaneIds, errorNaming, paneIds, withCurrentView } from '../ids.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneRecord, Registry } from '../registry.js';
import { agentInfo } from '../wire-views.js';
import type { PaneOperations } from './panes.js';

/** What a wait without `until` waits for: the agent is ready for its next prompt or needs an answer. */
export const SETTLED_STATUSES: readonly AgentStatus[] = ['idle', 'done', 'blocked'];

/** Whether `status` is one of `until`; `idle` includes `done` (an idle agent nobody read yet). */
export function statusIn(status: AgentStatus, until: readonly AgentStatus[]): boolean {
  return until.includes(status) || (status === 'done' && until.includes('idle'));
}

export interface AgentOperationParts extends AgentWaitParts {
  registry: Registry;
  shards: PaneShards;
  panes: PaneOperations;
}

export class AgentOperations {
  constructor(private readonly parts: AgentOperationParts) {}

  resolve(target: string): ResolvedAgent {
    return resolveAgent(this.parts.registry, target);
  }

  info(pane: PaneRecord): AgentInfo {
    return agentInfo(this.parts.registry, pane);
  }

  list(): AgentInfo[] {
    const { registry } = this.parts;
    return registry.workspaces.flatMap((workspace) => registry.panesInLayoutOrder(workspace).filter(hostsAgent).map((pane) => this.info(pane)));
  }

  async read(target: string, window: ReadWindow, batch: EventBatch): Promise<PaneRead> {
    const { pane } = this.resolve(target);
    const read = await this.parts.panes.read(pane, window);
    lookedAt(pane, batch);
    return read;
  }

  /** A name for the occupant (null or empty: none); it goes when the agent goes. */
  rename(target: string, name: string | null | undefined, batch: EventBatch): AgentInfo {
    const { pane } = this.resolve(target);
    const wanted = name?.trim() ? name.trim() : undefined;
    if (wanted !== undefined) checkAgentName(this.parts.registry, wanted, pane);
    if (pane.occupant.start) pane.occupant.start.name = wanted;
    else pane.occupant.name = wanted;
    // As herdr: a renamed agent's pane is reported updated.
    paneUpdated(this.parts.registry, pane, batch);
    return this.info(pane);
  }

  focus(target: string, batch: EventBatch): AgentInfo {
    const { pane } = this.resolve(target);
    withFocusEvents(this.parts.registry, batch, () => this.parts.registry.focusPane(pane));
    lookedAt(pane, batch);
    return this.info(pane);
  }

  /** Keys for the occupant the target names; refused once another agent took the pane. */
  async sendKeys(target: string, keys: readonly string[]): Promise<void> {
    const agent = this.resolve(target);
    if (agent.pane.occupant.agent === undefined) throw errorNaming('agent_not_ready', (name) => `the agent in pane ${name(agent.pane)} has not shown up yet`);
    await this.parts.panes.input(agent.pane, '', keys, false);
  }

  async explain(target: string): Promise<AgentExplanationInfo> {
    const { pane } = this.resolve(target);
    const explanation = await this.parts.shards
      .of(pane)
      .request('explain', { paneUid: pane.uid })
      .catch((error: unknown) => this.parts.shards.refused(pane, error, 'pane_not_found'));
    return explanationInfo(pane, explanation);
  }

  /** Answers when the pinned agent's status is one of `until` (at once if it already is). */
  wait(target: string, until: readonly AgentStatus[], timeoutMs: number | undefined, connection: Connection): Promise<AgentInfo> {
    const agent = this.resolve(target);
    return waitOnAgent<AgentInfo>(this.parts, connection, {
      pane: agent.pane,
      timeoutMs,
      timedOut: () => errorNaming('timeout', (name) => `timed out waiting for the agent in pane ${name(agent.pane)} to be ${until.join(' or ')}`),
      look: () => {
        if (!stillThere(this.parts.registry, agent)) return { fail: notRunning(agent) };
        return statusIn(agentStatus(agent.pane), until) ? { settle: this.info(agent.pane) } : undefined;
      },
    });
  }
}

/** The pinned agent left: its pane closed, it exited, or another agent took the pane. */
export function notRunning(agent: ResolvedAgent): ProtocolError {
  return errorNaming('agent_not_running', (name) => `the agent ${agent.instanceId} is no longer in pane ${name(agent.pane)} (it exited, was replaced, or the pane closed)`);
}

function explanationInfo(pane: PaneRecord, explanation: AgentExplanation): AgentExplanationInfo {
  const { screen } = explanation;
  return withCurrentView<AgentExplanationInfo>({
    pane_id: paneIds(pane).pane_id,
    agent: pane.occupant.agent,
    agent_state: pane.occupant.state,
    agent_status: agentStatus(pane),
    decided_by: explanation.decidedBy,
    held: explanation.held,
    detected: explanation.detected,
    foreground_pgid: explanation.foregroundPgid,
    hook: explanation.hook,
    status: explanation.status,
    screen: screen && {
      agent: screen.agent,
      matched_rule: screen.matchedRule,
      raw_state: screen.rawState,
      otherwise: screen.otherwise,
      rules: screen.rules,
    },
  }, { pane_id: currentPaneIds(pane).pane_id });
}
