/**
 * Who occupies a pane as far as the agent API is concerned (docs/protocol.md §13.1): an
 * agent gets an instance id when it shows up and loses it, with its name, when it
 * leaves; one that agent.start launched takes the id and name the start gave out.
 * Targets name an agent by that id, by the id of the pane it is in, or by its name.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '../../protocol/errors.js';
import { errorNaming, parsePaneId } from '../ids.js';
import type { PaneRecord, Registry } from '../registry.js';

/** The pane's agent changed to `agent` (undefined: no agent any more). */
export function takeOccupant(pane: PaneRecord, agent: string | undefined): void {
  if (agent === undefined) {
    pane.occupant.instanceId = undefined;
    pane.occupant.name = undefined;
    return;
  }
  const start = pane.occupant.start;
  pane.occupant.instanceId = start?.instanceId ?? randomUUID();
  pane.occupant.name = start?.name;
  pane.occupant.start = undefined;
}

/** Whether the pane hosts an agent the API can name (one that showed up, or one agent.start is waiting for). */
export function hostsAgent(pane: PaneRecord): boolean {
  return pane.occupant.agent !== undefined || pane.occupant.start !== undefined;
}

/** The id of the pane's occupant, present or coming. */
export function instanceOf(pane: PaneRecord): string | undefined {
  return pane.occupant.instanceId ?? pane.occupant.start?.instanceId;
}

/** The agent's name, present or coming. */
export function nameOf(pane: PaneRecord): string | undefined {
  return pane.occupant.name ?? pane.occupant.start?.name;
}

export interface ResolvedAgent {
  pane: PaneRecord;
  /** The occupant the target named: a later agent in the same pane is not it. */
  instanceId: string;
}

function allPanes(registry: Registry): PaneRecord[] {
  return registry.workspaces.flatMap((workspace) => workspace.panes);
}

/** An instance id, then a pane id, then a name (docs/protocol.md §13.1). */
export function resolveAgent(registry: Registry, target: string): ResolvedAgent {
  const panes = allPanes(registry);
  const byInstance = panes.find((pane) => instanceOf(pane) === target);
  if (byInstance) return { pane: byInstance, instanceId: target };
  if (parsePaneId(target)) {
    let pane: PaneRecord;
    try {
      pane = registry.resolvePane(target);
    } catch {
      throw new ProtocolError('agent_not_found', `no pane ${target}, so no agent there`);
    }
    const instanceId = instanceOf(pane);
    if (instanceId === undefined) throw new ProtocolError('agent_not_found', `pane ${target} does not host an agent`);
    return { pane, instanceId };
  }
  const byName = panes.find((pane) => hostsAgent(pane) && nameOf(pane) === target);
  const instanceId = byName && instanceOf(byName);
  if (byName && instanceId) return { pane: byName, instanceId };
  throw new ProtocolError('agent_not_found', `no running agent has the instance id, pane id or name ${JSON.stringify(target)}`);
}

/** The pane still holds the occupant a request was pinned to. */
export function stillThere(registry: Registry, agent: ResolvedAgent): boolean {
  return registry.paneByUid(agent.pane.uid) === agent.pane && instanceOf(agent.pane) === agent.instanceId;
}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Checks a new name: its form, and that no other agent (present or coming) has it. */
export function checkAgentName(registry: Registry, name: string, except?: PaneRecord): void {
  if (!NAME.test(name)) {
    throw new ProtocolError('invalid_agent_name', `agent name ${JSON.stringify(name)}: a lowercase letter, then up to 31 of a-z, 0-9, "-" and "_"`);
  }
  const holder = allPanes(registry).find((pane) => pane !== except && hostsAgent(pane) && nameOf(pane) === name);
  if (holder) throw errorNaming('agent_name_taken', (paneName) => `the agent in pane ${paneName(holder)} is already named ${name}`);
}
