/**
 * `herdr mcp`: an MCP server over stdio (the official SDK) whose tools drive a
 * herdr server through the client library, on one kept-alive connection.
 * stdout carries protocol frames only; anything else goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HerdrClient } from '../client/client.js';
import type { Dialer } from '../client/transport.js';
import { VERSION } from '../protocol/version.js';
import { BlockedWatch } from './blocked-watch.js';
import type { McpContext } from './context.js';
import { INSTRUCTIONS } from './instructions.js';
import { type Resources, registerResources } from './resources.js';
import { registerClose } from './tools/close.js';
import { registerFleet } from './tools/fleet.js';
import { registerPromptAgent } from './tools/prompt-agent.js';
import { registerReadPane } from './tools/read-pane.js';
import { registerRunCommand } from './tools/run-command.js';
import { registerSendKeys } from './tools/send-keys.js';
import { registerStartAgent } from './tools/start-agent.js';
import { registerWaitAgents } from './tools/wait-agents.js';

export interface McpServeOptions {
  /** How the herdr server is reached: its socket, or a host over ssh. */
  dialer: Dialer;
}

/** The MCP server with every tool and resource, for the herdr server `context.client` talks to. */
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
  const resources = registerResources(server, context);
  return { server, resources };
}

/** Serves MCP on stdin/stdout until stdin ends, then closes everything and resolves. */
export async function serveStdio(options: McpServeOptions): Promise<void> {
  const log = (message: string) => void process.stderr.write(`herdr mcp: ${message}\n`);
  const client = new HerdrClient({ dialer: options.dialer });
  const context: McpContext = { client, log };
  const { server, resources } = createMcpServer(context);
  const blocked = new BlockedWatch(server, context, resources);
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    // The host closing our stdin is the end of the session: the SDK's transport does not watch for it.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  log(`serving ${options.dialer.where}`);
  blocked.start();
  await ended;
  blocked.stop();
  resources.close();
  await server.close();
  client.close();
}
