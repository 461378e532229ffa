/**
 * Tells the MCP client, without being asked, what an orchestrator must not
 * miss: an agent that turned blocked (a `notifications/message` at level
 * `warning` with the agent and its question, which hosts show or log, and
 * `resources/updated` of herdr://agents for those subscribed to it), and panes
 * that came or went (`resources/list_changed`). One `events.subscribe` of the
 * server's, resumed from its last seq when the connection drops.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HerdrError, type Subscription } from '../client/client.js';
import type { SubscriptionSpec } from '../protocol/methods.js';
import type { Host, McpContext } from './context.js';
import { AGENTS_URI, type Resources } from './resources.js';
import { agentView } from './views.js';

/** Retried after 1 s, doubling to 30 s while the server stays away (as `herdr fleet events`). */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
const SPECS: SubscriptionSpec[] = [{ type: 'pane.agent_status_changed', agent_status: 'blocked' }, { type: 'pane.created' }, { type: 'pane.closed' }];

export class BlockedWatch {
  private subscription: Subscription | undefined;
  private stopped = false;
  private since: number | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;

  constructor(
    private readonly server: McpServer,
    private readonly context: McpContext,
    private readonly host: Host,
    private readonly resources: Resources,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.subscription?.close();
  }

  private async run(): Promise<void> {
    const { client } = this.host;
    try {
      this.subscription = await client.subscribe(SPECS, { id: 'mcp:blocked', ...(this.since === undefined ? {} : { since: this.since }) });
      if (this.stopped) this.subscription.close();
      if (this.retryMs > FIRST_RETRY_MS) this.context.log(`event subscription of ${client.dialer.where}: back`);
      this.retryMs = FIRST_RETRY_MS;
      for await (const line of this.subscription) {
        if (line.event === 'pane.agent_status_changed') await this.blocked(line.data.pane_id);
        else if (line.event === 'pane_created' || line.event === 'pane_closed') this.server.sendResourceListChanged();
      }
      this.since = this.subscription.lastSeq ?? this.since;
    } catch (error) {
      // A server that refused `since` (restarted, its seqs begun again) is followed from now on.
      if (error instanceof HerdrError) this.since = undefined;
      // Said once per absence, not at every retry.
      if (this.retryMs === FIRST_RETRY_MS) this.context.log(`event subscription of ${client.dialer.where}: ${error instanceof Error ? error.message : String(error)}; retrying`);
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    }
    if (!this.stopped) this.retry = setTimeout(() => void this.run(), this.retryMs);
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
