/**
 * `herdr mcp`: an MCP server over stdio (the official SDK) whose tools drive a
 * herdr server through the client library, on one kept-alive connection.
 * stdout carries protocol frames only; anything else goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VERSION } from '../protocol/version.js';
import { BlockedWatch } from './blocked-watch.js';
import type { HostTarget } from '../client/transport.js';
import { McpContext } from './context.js';
import { INSTRUCTIONS } from './instructions.js';
import { type Resources, registerResources } from './resources.js';
import { registerApprovals } from './tools/approvals.js';
import { registerClose } from './tools/close.js';
import { registerFleet } from './tools/fleet.js';
import { registerPromptAgent } from './tools/prompt-agent.js';
import { registerReadPane } from './tools/read-pane.js';
import { registerRules } from './tools/rules.js';
import { registerRunCommand } from './tools/run-command.js';
import { registerSendKeys } from './tools/send-keys.js';
import { registerStartAgent } from './tools/start-agent.js';
import { registerWaitAgents } from './tools/wait-agents.js';

export interface McpServeOptions {
  /** The herdr servers driven: the local one (host undefined) by its socket, and any over ssh. */
  targets: HostTarget[];
}

/** The MCP server with every tool and resource, for the herdr servers of `context`. */
export function createMcpServer(context: McpContext): { server: McpServer; resources: Resources } {
  const server = new McpServer(
    { name: 'herdr', version: VERSION },
    { instructions: INSTRUCTIONS, capabilities: { logging: {} } },
  );
  registerFleet(server, context);
  registerStartAgent(server, context);
  registerPromptAgent(server, context);
  registerWaitAgents(server, context);
  registerReadPane(server, context);
  registerSendKeys(server, context);
  registerClose(server, context);
  registerRunCommand(server, context);
  registerApprovals(server, context);
  registerRules(server, context);
  const resources = registerResources(server, context);
  return { server, resources };
}

/** Serves MCP on stdin/stdout until stdin ends, then closes everything and resolves. */
export async function serveStdio(options: McpServeOptions): Promise<void> {
  const log = (message: string) => void process.stderr.write(`herdr mcp: ${message}\n`);
  const context = new McpContext(options.targets, log);
  const { server, resources } = createMcpServer(context);
  const watches = context.hosts.map((host) => new BlockedWatch(server, context, host, resources));
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    // The host closing our stdin is the end of the session: the SDK's transport does not watch for it.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  log(`serving ${context.hosts.map((host) => host.client.dialer.where).join(', ')}`);
  for (const watch of watches) watch.start();
  await ended;
  for (const watch of watches) watch.stop();
  resources.close();
  await server.close();
  context.close();
}
