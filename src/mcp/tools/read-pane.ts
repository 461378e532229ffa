/** `read_pane`: a pane's text (`pane.read`), or an agent's by name or instance id (`agent.read`). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { HerdrError } from '../../client/client.js';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import { READ_SOURCES } from '../../protocol/objects.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { workspaceOf } from '../views.js';
import { toolInput } from '../tool-input.js';

const input = METHOD_PARAMS['agent.read'].extend({
  source: z.enum(READ_SOURCES).default('recent').describe('visible: the screen; recent: the last `lines` lines, scrollback included'),
});

const output = z.object({
  pane: z.string(),
  workspace: z.string(),
  source: z.enum(READ_SOURCES),
  text: z.string(),
  truncated: z.boolean().describe('more lines were there than `lines`'),
});

export function registerReadPane(server: McpServer, context: McpContext): void {
  server.registerTool(
    'read_pane',
    {
      title: 'Read a pane',
      description:
        'The text of a pane (target: its id, e.g. w1:p3) or of an agent (its name or instance id): the visible screen, ' +
        'or the last `lines` lines (default 80) with scrollback. Reading a done agent marks it seen (idle).',
      inputSchema: toolInput(input),
      outputSchema: output,
      annotations: { readOnlyHint: true },
    },
    ({ target: given, ...window }) =>
      guarded(async () => {
        const { host, id: target } = context.resolve(given);
        let read;
        try {
          ({ read } = await host.client.call('pane.read', { pane_id: target, ...window }));
        } catch (error) {
          // Not a pane id: a name or an instance id of an agent.
          if (!(error instanceof HerdrError && error.code === 'pane_not_found')) throw error;
          ({ read } = await host.client.call('agent.read', { target, ...window }));
        }
        const pane = context.qualify(host, read.stable_id);
        const workspace = context.qualify(host, workspaceOf(read.stable_id));
        const structured = { pane, workspace, source: read.source, text: read.text, truncated: read.truncated };
        return answer(structured, read.text);
      }),
  );
}
