/**
 * The approval inbox as tools (docs/protocol.md §13.6): `approvals` lists every blocked agent
 * of every server with its question and menu; `answer_approval` picks an option, typed only
 * while the same question is on the agent's screen.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import { approvalSchema } from '../../protocol/methods/approvals.js';
import type { McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { toolInput } from '../tool-input.js';

const approvalView = approvalSchema
  .pick({ agent: true, name: true, cwd: true, since: true, question: true, menu: true, options: true, selected: true, question_hash: true })
  .extend({ pane: z.string().describe('its stable id (host-qualified with --host), as answer_approval takes it') });
type ApprovalView = z.output<typeof approvalView>;

const listOutput = z.object({
  approvals: z.array(approvalView),
  unreachable: z.array(z.object({ host: z.string(), error: z.string() })).optional(),
});

const answerParams = METHOD_PARAMS['approvals.answer'];
const answerInput = z.object({
  pane: z.string().describe('the pane as `approvals` lists it'),
  option: answerParams.shape.option,
  question_hash: answerParams.shape.question_hash,
});

export function registerApprovals(server: McpServer, context: McpContext): void {
  server.registerTool(
    'approvals',
    {
      title: 'List the agents waiting for an answer',
      description:
        'Every blocked agent (any vendor) with the question on its screen and its menu\'s options, the longest-waiting first. ' +
        'Answer one with answer_approval (its pane, an option key and the question_hash listed here).',
      inputSchema: toolInput(z.object({ agent: z.string().optional().describe('only this agent kind (claude, codex, …)') })),
      outputSchema: listOutput,
      annotations: { readOnlyHint: true },
    },
    ({ agent }) =>
      guarded(async () => {
        const { answers, unreachable } = await context.askAll((host) => host.client.call('approvals.list', agent === undefined ? {} : { agent }));
        const approvals: ApprovalView[] = answers.flatMap(({ host, value }) =>
          value.approvals.map(({ pane_id: _pane, workspace_id: _workspace, stable_id, agent_instance_id: _instance, ...rest }) => ({ pane: context.qualify(host, stable_id), ...rest })),
        );
        approvals.sort((a, b) => a.since - b.since);
        const lines = [
          `${approvals.length} waiting`,
          ...approvals.map((entry) => `${entry.pane} ${entry.name ?? entry.agent ?? 'agent'}: ${entry.question ?? '(no question)'} [${entry.options.map((option) => `${option.key} ${option.label}`).join(' | ') || 'no menu'}]`),
        ];
        for (const { host, error } of unreachable) lines.push(`${host}: unreachable (${error})`);
        return answer({ approvals, ...(unreachable.length > 0 ? { unreachable } : {}) }, lines.join('\n'));
      }),
  );

  server.registerTool(
    'answer_approval',
    {
      title: 'Answer a waiting agent',
      description:
        'Picks an option of a blocked agent\'s menu, as listed by approvals. The keys are typed only if the same question is still on ' +
        'its screen (question_hash); otherwise nothing is typed and the error says so: list again.',
      inputSchema: toolInput(answerInput),
      outputSchema: z.object({ pane: z.string(), option: z.string(), label: z.string(), keys: z.array(z.string()) }),
    },
    ({ pane, option, question_hash }) =>
      guarded(async () => {
        const { host, id } = context.resolve(pane);
        const answered = await host.client.call('approvals.answer', { pane_id: id, option, question_hash });
        return answer({ pane, option, label: answered.label, keys: answered.keys }, `answered ${pane}: ${option}. ${answered.label}`);
      }),
  );
}
