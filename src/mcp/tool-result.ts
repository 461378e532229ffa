/**
 * How a tool answers: structured content (checked against its outputSchema by
 * the SDK) with a short text beside it for hosts that show text only; and a
 * failure as an MCP tool error (`isError`), carrying our error code so that an
 * agent can act on it (`agent_blocked`, `timeout`, …) rather than on prose.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ConnectionError, HerdrError } from '../client/client.js';

export function answer(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/** A failure `herdr mcp` itself finds (not the server), with a code of the same kind as the server's. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The code an error carries: the server's, `unreachable` for a lost server, `failed` for anything else. */
export function errorCode(error: unknown): string {
  if (error instanceof HerdrError || error instanceof ToolError) return error.code;
  if (error instanceof ConnectionError) return 'unreachable';
  return 'failed';
}

function messageOf(error: unknown): string {
  if (error instanceof HerdrError) return error.response.error.message;
  return error instanceof Error ? error.message : String(error);
}

/** One line: the code, then what happened. */
export function describeError(error: unknown): string {
  return `${errorCode(error)}: ${messageOf(error)}`;
}

export function failure(error: unknown): CallToolResult {
  const code = errorCode(error);
  const message = messageOf(error);
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], _meta: { 'herdr/error': { code, message } } };
}

/** Runs a tool's body: a throw becomes a tool error, never a protocol error. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return failure(error);
  }
}
