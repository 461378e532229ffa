/**
 * Long tool calls (a prompt's turn, a wait) tell the host they are alive:
 * when the call carries a progress token, a `notifications/progress` every
 * 10 s, which hosts that reset their request timeout on progress (the SDK's
 * `resetTimeoutOnProgress`) take as "still waiting", not "hung".
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export const PROGRESS_INTERVAL_MS = 10_000;

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export async function withProgress<T>(extra: ToolExtra, what: string, body: () => Promise<T>): Promise<T> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return body();
  const began = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - began) / 1000);
    void extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: seconds, message: `${what} (${seconds} s)` } })
      .catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  try {
    return await body();
  } finally {
    clearInterval(timer);
  }
}
