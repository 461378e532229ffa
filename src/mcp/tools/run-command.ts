/** `run_command`: a shell command typed into a pane's shell; its output and exit code back (src/mcp/run-command.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METHOD_PARAMS } from '../../protocol/methods.js';
import { optional } from '../../protocol/optional.js';
import type { McpContext } from '../context.js';
import { runCommand } from '../run-command.js';
import { withProgress } from '../progress.js';
import { answer, guarded } from '../tool-result.js';
import { hostParam } from './host-param.js';
import { toolInput } from '../tool-input.js';
import type { PaneInfo } from '../../protocol/objects.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_LINES = 1_000;

const input = z.object({
  command: METHOD_PARAMS['pane.send_text'].shape.text
    .min(1)
    .max(65_536)
    .refine((text) => !/[\0-\x1f\x7f]/.test(text), 'one line, without control characters (join commands with ; or &&)')
    .describe('a POSIX shell command line, e.g. "npm test"'),
  pane_id: optional(METHOD_PARAMS['pane.send_input'].shape.pane_id.describe('a pane whose shell is at its prompt; default: this session\'s scratch shell in cwd')),
  new_pane: optional(z.boolean().describe('true: a new workspace\'s shell instead of the scratch shell (default false)')),
  cwd: optional(METHOD_PARAMS['workspace.create'].shape.cwd.describe('where the scratch shell stands (without pane_id); default: where herdr mcp runs, for the local server')),
  timeout_ms: METHOD_PARAMS['agent.wait'].shape.timeout_ms.describe(`how long to wait for the end (default ${DEFAULT_TIMEOUT_MS})`),
  lines: optional(z.number().int().min(1).max(10_000).describe(`how many lines of output at most (default ${DEFAULT_LINES})`)),
  host: optional(hostParam),
});

const output = z.object({
  pane: z.string().describe('where it ran: run more there with pane_id'),
  exit_code: z.number().int().nullable(),
  output: z.string(),
  truncated: z.boolean().describe('the output had more lines than `lines`; its beginning is cut'),
  via: z
    .enum(['osc133', 'marker', 'exit'])
    .describe('osc133: the shell reported the end itself; marker: run_command\'s marks around the command; exit: the command ended the shell (`exit 3`), exit_code is the shell\'s'),
});

export function registerRunCommand(server: McpServer, context: McpContext): void {
  server.registerTool(
    'run_command',
    {
      title: 'Run a shell command in a pane',
      description:
        'Types a command line into a pane\'s shell and answers with its output and exit code once it ends: `pane_id`, else a scratch ' +
        'shell in `cwd` kept for this session (a new workspace the first time, or with `new_pane`). The command runs in that shell, ' +
        'visible in the pane. Not for panes that run an agent (use prompt_agent).',
      inputSchema: toolInput(input),
      outputSchema: output,
    },
    ({ command, pane_id, new_pane, cwd, timeout_ms, lines, host: hostName }, extra) =>
      guarded(async () => {
        const target = pane_id === undefined ? { host: context.host(hostName), id: undefined } : context.resolve(pane_id);
        const { host } = target;
        const place = context.placeOf(host, cwd, undefined);
        const timeoutMs = timeout_ms ?? DEFAULT_TIMEOUT_MS;
        let pane: PaneInfo;
        let marked: boolean;
        let marksInput: boolean;
        let scratchKey: string | undefined;
        if (target.id === undefined) {
          ({ pane, marked, marksInput } = await context.scratch.take(host, place, new_pane === true, timeoutMs));
          scratchKey = context.scratch.keyOf(host, place.cwd);
        } else {
          pane = (await host.client.call('pane.get', { pane_id: target.id })).pane;
          marked = context.scratch.marks(host, pane);
          marksInput = context.scratch.marksInput(host, pane);
          scratchKey = context.scratch.withdraw(host, pane);
        }
        const options = { command, timeoutMs, lines: lines ?? DEFAULT_LINES, marked, marksInput };
        const ran = await withProgress(extra, 'waiting for the command to end', () => runCommand(host.client, pane, options));
        // Ended: the next command without pane_id may use it (one that timed out threw, and keeps its pane);
        // a shell the command ended is gone, and the next command gets a new one.
        if (ran.via === 'exit') context.scratch.ended(host, pane);
        else if (scratchKey !== undefined) context.scratch.giveBack(scratchKey, pane);
        const run = { ...ran, pane: context.qualify(host, ran.pane) };
        const ended = run.via === 'exit' ? ` (the command ended the shell; ${run.pane} is gone)` : '';
        return answer(run, `exit ${run.exit_code ?? '?'} in ${run.pane}${ended}\n${run.output}`);
      }),
  );
}
