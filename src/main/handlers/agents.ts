/** The agent API, `agent.*` (docs/protocol.md §13): params to operations, results as the wire shows them. */
import type { AgentInfo } from '../../protocol/objects.js';
import type { ServerCore } from '../core.js';
import { AgentOperations, SETTLED_STATUSES } from '../operations/agents.js';
import { promptAgent } from '../operations/agent-prompt.js';
import { startAgent } from '../operations/agent-start.js';
import { readWindow } from '../../protocol/read-window.js';
import type { Router } from '../router.js';

export function registerAgentHandlers(router: Router, core: Pick<ServerCore, 'registry' | 'events' | 'open' | 'shards' | 'panes' | 'workspaces' | 'spawner' | 'turns'>): void {
  const agents = new AgentOperations(core);
  const agentResult = (agent: AgentInfo) => ({ type: 'agent_info', agent }) as const;

  router.register('agent.list', () => ({ type: 'agent_list', agents: agents.list() }));

  router.register('agent.get', (params) => agentResult(agents.info(agents.resolve(params.target).pane)));

  router.register('agent.read', async (params, { batch }) => {
    const read = await agents.read(params.target, readWindow(params), batch);
    return { type: 'pane_read', read };
  });

  router.register('agent.rename', (params, { batch }) => agentResult(agents.rename(params.target, params.name, batch)));

  router.register('agent.focus', (params, { batch }) => agentResult(agents.focus(params.target, batch)));

  router.register('agent.start', async (params, context) => {
    const { agent, argv } = await startAgent(core, agents, {
      name: params.name,
      kind: params.kind,
      args: params.args,
      command: params.command,
      paneId: params.pane_id,
      cwd: params.cwd,
      env: params.env,
      label: params.label,
      focus: params.focus ?? false,
      timeoutMs: params.timeout_ms,
      wait: params.wait ?? true,
    }, context);
    return { type: 'agent_started', agent, argv };
  });

  router.register('agent.prompt', async (params, { connection }) => {
    const wait = params.wait ? { until: params.wait.until ?? [], timeoutMs: params.wait.timeout_ms ?? undefined } : undefined;
    const { agent, turn, atSubmission } = await promptAgent(core, agents, { target: params.target, text: params.text, wait, stallMs: params.stall_ms, key: params.key }, connection);
    return { type: 'agent_prompted', agent, turn, ...(atSubmission === undefined ? {} : { agent_status_at_submission: atSubmission }) };
  });

  router.register('agent.turn.get', (params) => ({ type: 'agent_turn', turn: core.turns.info(core.turns.get(params.turn_id)) }));

  router.register('agent.queue.list', (params) => {
    const { pane } = agents.resolve(params.target);
    return { type: 'agent_queue', turns: core.turns.queued(pane).map((turn) => core.turns.info(turn)) };
  });

  router.register('agent.queue.cancel', (params) => ({ type: 'agent_turn', turn: core.turns.info(core.turns.cancel(params.turn_id)) }));

  router.register('agent.send_keys', async (params) => {
    await agents.sendKeys(params.target, params.keys);
    return { type: 'ok' };
  });

  router.register('agent.wait', async (params, { connection }) => {
    const until = params.until?.length ? params.until : SETTLED_STATUSES;
    return agentResult(await agents.wait(params.target, until, params.timeout_ms ?? undefined, connection));
  });

  router.register('agent.explain', async (params) => ({ type: 'agent_explain', explain: await agents.explain(params.target) }));

}
