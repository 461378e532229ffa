/** What every tool and resource of `herdr mcp` works with: the server's client, and a log that is never stdout. */
import type { HerdrClient } from '../client/client.js';

export interface McpContext {
  /** The kept-alive client of the herdr server. */
  readonly client: HerdrClient;
  /** stderr only: stdout carries the MCP frames and nothing else. */
  log(message: string): void;
}
