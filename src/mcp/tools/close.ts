/** `close`: a pane (`pane.close`) or a whole workspace (`workspace.close`). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import { optional } from '../../protocol/optional.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { toolInput } from '../tool-input.js';

const input = z
  .object({
    pane_id: optional(METHOD_PARAMS['pane.close'].shape.pane_id.describe('a pane, e.g. w1:p3')),
    workspace_id: optional(METHOD_PARAMS['workspace.close'].shape.workspace_id.describe('a workspace, e.g. w1: every pane in it')),
  })
  .refine((params) => (params.pane_id === undefined) !== (params.workspace_id === undefined), 'give either pane_id or workspace_id');

export function registerClose(server: McpServer, context: McpContext): void {
  server.registerTool(
    'close',
    {
      title: 'Close a pane or workspace',
      description: 'Closes a pane (its processes get SIGHUP) or a workspace with all its panes. An agent in it ends.',
      inputSchema: toolInput(input),
      outputSchema: z.object({ closed: z.string() }),
      annotations: { destructiveHint: true },
    },
    ({ pane_id, workspace_id }) =>
      guarded(async () => {
        if (pane_id !== undefined) {
          const { host, id } = context.resolve(pane_id);
          await host.client.call('pane.close', { pane_id: id });
        } else if (workspace_id !== undefined) {
          const { host, id } = context.resolve(workspace_id);
          await host.client.call('workspace.close', { workspace_id: id });
        }
        const closed = pane_id ?? workspace_id ?? '';
        return answer({ closed }, `closed ${closed}`);
      }),
  );
}
