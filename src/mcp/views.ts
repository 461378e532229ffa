/**
 * What the MCP tools hand an agent: panes and agents by their stable ids
 * (`w1:p3`, which never move when something closes, unlike the compact ids the
 * default socket answers with), and only the fields an orchestrator acts on.
 * Each view has a zod schema, which is also the tool's `outputSchema`.
 */
import { z } from 'zod';
import { AGENT_STATUSES, type AgentInfo, type PaneInfo } from '../protocol/objects.js';

export const agentViewSchema = z.object({
  agent_instance_id: z.string().describe('pins this occupant of the pane: a later agent there gets another'),
  name: z.string().optional(),
  kind: z.string().describe('the agent: a detected agent\'s name, or what its hook or status reported'),
  status: z.enum(AGENT_STATUSES),
  question: z.string().optional().describe('what a blocked agent asks (its agent_message)'),
  pane: z.string().describe('the stable id of the pane that hosts it'),
  workspace: z.string().describe('the stable id of its workspace'),
  cwd: z.string().optional(),
  label: z.string().optional(),
  starting: z.literal(true).optional().describe('launched and not shown up yet'),
});
export type AgentView = z.output<typeof agentViewSchema>;

export const paneViewSchema = z.object({
  pane: z.string().describe('its stable id, e.g. w1:p3'),
  workspace: z.string(),
  tab: z.string().optional(),
  label: z.string().optional(),
  cwd: z.string().optional(),
  agent: z.string().optional().describe('the agent in it, if any'),
  agent_name: z.string().optional(),
  status: z.enum(AGENT_STATUSES),
  question: z.string().optional(),
  last_exit_code: z.number().int().optional(),
  title: z.string().optional(),
});
export type PaneView = z.output<typeof paneViewSchema>;

/** `w2:p9` → `w2`: a pane's stable id starts with its workspace's. */
export function workspaceOf(stablePaneId: string): string {
  return stablePaneId.split(':')[0] ?? stablePaneId;
}

/** Fields that are absent stay absent (not `undefined`), so the JSON the agent reads is short. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** How an id is written for the agent: as it is, or with its host (McpContext.qualify). */
export type Qualify = (id: string) => string;
const asIs: Qualify = (id) => id;

export function agentView(agent: AgentInfo, qualify: Qualify = asIs): AgentView {
  return compact({
    agent_instance_id: agent.agent_instance_id,
    name: agent.name,
    kind: agent.agent,
    status: agent.agent_status,
    question: agent.agent_status === 'blocked' ? agent.agent_message : undefined,
    pane: qualify(agent.terminal_id),
    workspace: qualify(workspaceOf(agent.terminal_id)),
    cwd: agent.cwd,
    label: agent.label,
    starting: agent.launch_pending,
  });
}

export function paneView(pane: PaneInfo, agentName?: string, qualify: Qualify = asIs): PaneView {
  return compact({
    pane: qualify(pane.stable_id),
    workspace: qualify(workspaceOf(pane.stable_id)),
    tab: pane.tab_id === undefined ? undefined : qualify(pane.tab_id),
    label: pane.label,
    cwd: pane.cwd,
    agent: pane.agent,
    agent_name: agentName,
    status: pane.agent_status,
    question: pane.agent_status === 'blocked' ? pane.agent_message : undefined,
    last_exit_code: pane.last_exit_code,
    title: pane.terminal_title ?? pane.title,
  });
}

/** Blocked first (they wait for an answer), then done, working, idle, unknown. */
const URGENCY: Record<(typeof AGENT_STATUSES)[number], number> = { blocked: 0, done: 1, working: 2, idle: 3, unknown: 4 };

export function byUrgency(a: { status: keyof typeof URGENCY }, b: { status: keyof typeof URGENCY }): number {
  return URGENCY[a.status] - URGENCY[b.status];
}
