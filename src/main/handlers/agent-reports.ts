/**
 * The hook methods agents' integrations call (docs/protocol.md §10.5): checked
 * here (pane, label), applied by the pane's shard, answered `ok` at once, also
 * when the shard then drops the report as stale.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { AgentSession } from '../../protocol/objects.js';
import { clip } from '../../protocol/text.js';
import type { Router } from '../router.js';
import type { PaneOperations } from '../operations/panes.js';
import type { Registry } from '../registry.js';

const OK = { type: 'ok' } as const;
/** A blocked agent's question is shown, not stored whole. */
export const MAX_AGENT_MESSAGE = 2048;

function agentLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length === 0) throw new ProtocolError('invalid_agent', 'agent must be a non-empty label');
  return trimmed;
}

function agentSessionOf(params: { agent_session_id?: string; agent_session_path?: string }): AgentSession | undefined {
  const { agent_session_id: id, agent_session_path: path } = params;
  if (id === undefined && path === undefined) return undefined;
  return { ...(id === undefined ? {} : { id }), ...(path === undefined ? {} : { path }) };
}

/** Only the fields a report carries: an absent `seq` stays absent (the shard tells "none" from zero). */
const seqOf = (seq: bigint | undefined) => (seq === undefined ? {} : { seq });

export function registerAgentReportHandlers(router: Router, { registry, panes }: { registry: Registry; panes: PaneOperations }): void {
  router.register('pane.report_agent', (params) => {
    const pane = registry.resolvePane(params.pane_id);
    const agent = agentLabel(params.agent);
    const agentSession = agentSessionOf(params);
    const message = params.message === undefined ? undefined : clip(params.message, MAX_AGENT_MESSAGE);
    panes.reportAgent(pane, {
      kind: 'report',
      paneUid: pane.uid,
      source: params.source,
      ...seqOf(params.seq),
      agent,
      state: params.state,
      ...(message ? { message } : {}),
      ...(agentSession ? { session: agentSession } : {}),
    });
    return OK;
  });

  router.register('pane.release_agent', (params) => {
    const pane = registry.resolvePane(params.pane_id);
    panes.reportAgent(pane, { kind: 'release', paneUid: pane.uid, source: params.source, ...seqOf(params.seq), agent: agentLabel(params.agent) });
    return OK;
  });

  router.register('pane.report_agent_session', (params) => {
    const pane = registry.resolvePane(params.pane_id);
    const agent = agentLabel(params.agent);
    panes.reportAgent(pane, {
      kind: 'session',
      paneUid: pane.uid,
      source: params.source,
      ...seqOf(params.seq),
      agent,
      session: agentSessionOf(params) ?? {},
    });
    return OK;
  });

  router.register('pane.clear_agent_authority', (params) => {
    const pane = registry.resolvePane(params.pane_id);
    panes.clearAgentAuthority(pane, {
      paneUid: pane.uid,
      ...(params.source === undefined ? {} : { source: params.source }),
      ...seqOf(params.seq),
    });
    return OK;
  });
}
