/**
 * The resources of `herdr mcp`: each pane's screen as text
 * (`herdr://pane/<stable id>/screen`, listed through a resource template) and
 * the agents as JSON (`herdr://agents`), with `resources/subscribe`: a screen
 * is watched by src/mcp/screen-watch.ts, the agents resource is updated when an
 * agent turns blocked (src/mcp/blocked-watch.ts).
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './context.js';
import { ScreenWatch } from './screen-watch.js';
import { agentView, byUrgency } from './views.js';

export const AGENTS_URI = 'herdr://agents';
const SCREEN = /^herdr:\/\/pane\/([^/]+)\/screen$/;

export function screenUri(paneId: string): string {
  return `herdr://pane/${paneId}/screen`;
}

export interface Resources {
  /** Whether a client subscribed to this URI. */
  subscribed(uri: string): boolean;
  close(): void;
}

export function registerResources(server: McpServer, context: McpContext): Resources {
  const subscriptions = new Set<string>();
  const screens = new ScreenWatch(
    (paneId, gone) => {
      const uri = screenUri(paneId);
      if (gone) subscriptions.delete(uri);
      void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
      if (gone) server.sendResourceListChanged();
    },
    context.log,
  );

  server.registerResource(
    'pane-screen',
    new ResourceTemplate('herdr://pane/{pane}/screen', {
      list: async () => {
        // A server that cannot be asked lists nothing; the others still do.
        const lists = await Promise.all(context.hosts.map(async (host) => ({ host, panes: (await host.client.call('pane.list', {}).catch(() => ({ panes: [] }))).panes })));
        return {
          resources: lists.flatMap(({ host, panes }) =>
            panes.map((pane) => {
              const id = context.qualify(host, pane.stable_id);
              return { uri: screenUri(id), name: `${id} screen`, title: `${pane.label ?? pane.agent ?? 'shell'} (${id})`, mimeType: 'text/plain' };
            }),
          ),
        };
      },
    }),
    { title: 'A pane\'s screen', description: 'The visible screen of a pane, as text. Subscribe to be told when it changes (at most 4 times a second).', mimeType: 'text/plain' },
    async (uri, variables) => {
      const { host, id } = context.resolve(decodeURIComponent(String(variables.pane)));
      const { read } = await host.client.call('pane.read', { pane_id: id, source: 'visible' });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: read.text }] };
    },
  );

  server.registerResource(
    'agents',
    AGENTS_URI,
    { title: 'Agents', description: 'Every agent with its status, blocked first. Updated when an agent turns blocked.', mimeType: 'application/json' },
    async (uri) => {
      const lists = await Promise.all(context.hosts.map(async (host) => ({ host, agents: (await host.client.call('agent.list', {}).catch(() => ({ agents: [] }))).agents })));
      const views = lists.flatMap(({ host, agents }) => agents.map((agent) => agentView(agent, (id) => context.qualify(host, id)))).sort(byUrgency);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(views, null, 2) }] };
    },
  );

  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async ({ params }) => {
    const screen = SCREEN.exec(params.uri);
    if (screen) {
      try {
        const key = decodeURIComponent(screen[1] ?? '');
        const { host, id } = context.resolve(key);
        await screens.watch(key, host.client, id);
      } catch (error) {
        throw new McpError(ErrorCode.InvalidParams, `cannot watch ${params.uri}: ${error instanceof Error ? error.message : String(error)}`);
      }
    } else if (params.uri !== AGENTS_URI) {
      throw new McpError(ErrorCode.InvalidParams, `no such resource: ${params.uri}`);
    }
    subscriptions.add(params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, ({ params }) => {
    subscriptions.delete(params.uri);
    const screen = SCREEN.exec(params.uri);
    if (screen) screens.unwatch(decodeURIComponent(screen[1] ?? ''));
    return {};
  });

  return {
    subscribed: (uri) => subscriptions.has(uri),
    close: () => screens.close(),
  };
}
