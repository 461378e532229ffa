/** `send_keys`: keys to an agent (`agent.send_keys`, pinned to that occupant) or to a pane (`pane.send_keys`). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { HerdrError } from '../../client/client.js';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { toolInput } from '../tool-input.js';

export function registerSendKeys(server: McpServer, context: McpContext): void {
  server.registerTool(
    'send_keys',
    {
      title: 'Send keys',
      description:
        'Presses keys in an agent (target: name, instance id or pane id) or in a pane without an agent (its id). ' +
        'Keys: any single character, Enter, Tab, Esc, Backspace, Up, Down, Left, Right, Space, C-c, M-x, F1…F12. ' +
        'Answer a blocked agent\'s menu with e.g. ["1"] or ["Down", "Enter"], then wait_agents.',
      inputSchema: toolInput(METHOD_PARAMS['agent.send_keys']),
      outputSchema: z.object({ sent: z.number().int().min(0), to: z.enum(['agent', 'pane']) }),
    },
    ({ target: given, keys }) =>
      guarded(async () => {
        const { host, id: target } = context.resolve(given);
        let to: 'agent' | 'pane' = 'agent';
        try {
          await host.client.call('agent.send_keys', { target, keys });
        } catch (error) {
          // A pane with no agent in it (a shell) is addressed as a pane.
          if (!(error instanceof HerdrError && error.code === 'agent_not_found')) throw error;
          to = 'pane';
          await host.client.call('pane.send_keys', { pane_id: target, keys });
        }
        return answer({ sent: keys.length, to }, `sent ${keys.join(' ')} to ${to} ${given}`);
      }),
  );
}
