/**
 * Tells the MCP client, without being asked, what an orchestrator must not
 * miss: an agent that turned blocked (a `notifications/message` at level
 * `warning` with the agent and its question, which hosts show or log, and
 * `resources/updated` of herdr://agents for those subscribed to it), and panes
 * that came or went (`resources/list_changed`). One `events.subscribe` of the
 * server's, resumed from its last seq when the connection drops (resuming-subscription.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResumingSubscription } from '../client/resuming-subscription.js';
import type { SubscriptionSpec } from '../protocol/methods.js';
import type { Host, McpContext } from './context.js';
import { AGENTS_URI, type Resources } from './resources.js';
import { agentView } from './views.js';

const SPECS: SubscriptionSpec[] = [{ type: 'pane.agent_status_changed', agent_status: 'blocked' }, { type: 'pane.created' }, { type: 'pane.closed' }];

export class BlockedWatch {
  private readonly subscription: ResumingSubscription;

  constructor(
    private readonly server: McpServer,
    private readonly context: McpContext,
    private readonly host: Host,
    private readonly resources: Resources,
  ) {
    const { client } = host;
    this.subscription = new ResumingSubscription({
      open: (since) => client.subscribe(SPECS, { id: 'mcp:blocked', ...(since === undefined ? {} : { since }) }),
      line: async (line) => {
        if (line.event === 'pane.agent_status_changed') await this.blocked(line.data.pane_id);
        else if (line.event === 'pane_created' || line.event === 'pane_closed') this.server.sendResourceListChanged();
      },
      // Said once per absence, not at every retry.
      status: (status) => {
        if (status.kind === 'live' && status.back) this.context.log(`event subscription of ${client.dialer.where}: back`);
        else if (status.kind === 'unreachable' && status.first) this.context.log(`event subscription of ${client.dialer.where}: ${status.message}; retrying`);
      },
    });
  }

  start(): void {
    this.subscription.start();
  }

  stop(): void {
    this.subscription.stop();
  }

  private async blocked(paneId: string): Promise<void> {
    let data: Record<string, unknown> = { pane_id: paneId, status: 'blocked' };
    try {
      // The event names the pane by its compact id of the moment: the agent's stable view is asked at once.
      const { agent } = await this.host.client.call('agent.get', { target: paneId });
      const view = agentView(agent, (id) => this.context.qualify(this.host, id));
      data = { event: 'agent_blocked', ...view };
    } catch {
      // Gone already: the event alone is said.
    }
    const server = this.server;
    if (server.isConnected()) {
      await server.sendLoggingMessage({ level: 'warning', logger: 'herdr', data }).catch(() => undefined);
      if (this.resources.subscribed(AGENTS_URI)) await server.server.sendResourceUpdated({ uri: AGENTS_URI }).catch(() => undefined);
    }
  }
}
