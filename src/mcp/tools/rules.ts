/**
 * Event rules as tools (docs/protocol.md §13.8): `add_rule` gives a server a standing order
 * (when an agent turns done or blocked, a command fails, output matches or a schedule comes
 * round: start, prompt or queue into an agent), `rules` lists them with their counts,
 * `remove_rule` takes one away. A rule lives on one server: `host` picks it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type RuleInfo, ruleInfoSchema, ruleSpecSchema } from '../../protocol/rules.js';
import type { Host, McpContext } from '../context.js';
import { answer, guarded } from '../tool-result.js';
import { toolInput } from '../tool-input.js';

const host = z.string().optional().describe('the server (a --host name, or local); default the local one');
/** The trigger and action as given (the protocol's schemas read `null` as absent, which an output schema cannot say). */
const given = z.object({ type: z.string() }).passthrough();
const hostedRule = ruleInfoSchema.extend({ trigger: given, action: given, host: z.string().optional() });

/** A rule as the tools give it: with its server's name when that is not the local one. */
function hosted(rule: RuleInfo, target: Host): z.output<typeof hostedRule> {
  return target.name === undefined ? rule : { ...rule, host: target.name };
}

export function registerRules(server: McpServer, context: McpContext): void {
  server.registerTool(
    'add_rule',
    {
      title: 'Give the server a standing order',
      description:
        'When an agent turns idle/working/blocked/done, a command finishes with some exit code, a pane\'s output comes to match, or a cron ' +
        'schedule comes round, the server starts an agent, prompts an idle one, or queues a prompt for one, by itself. Each rule has a ' +
        'rate limit and a loop guard; every firing is a rule.fired event. Prompt texts may hold {{pane_id}}, {{agent}}, {{status}}, ' +
        '{{exit_code}}, {{matched_line}}.',
      inputSchema: toolInput(ruleSpecSchema.extend({ host })),
      outputSchema: hostedRule,
    },
    ({ host: name, ...spec }) =>
      guarded(async () => {
        const target = context.host(name);
        const { rule } = await target.client.call('rules.add', spec);
        return answer(hosted(rule, target), `added ${rule.rule_id}${rule.name === undefined ? '' : ` (${rule.name})`}`);
      }),
  );

  server.registerTool(
    'rules',
    {
      title: 'List the standing orders',
      description: 'Every event rule of every server: when it fires, what it does, and how often it fired, was skipped or failed.',
      inputSchema: toolInput(z.object({})),
      outputSchema: z.object({ rules: z.array(hostedRule), unreachable: z.array(z.object({ host: z.string(), error: z.string() })).optional() }),
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const { answers, unreachable } = await context.askAll((target) => target.client.call('rules.list', {}));
        const rules = answers.flatMap(({ host: target, value }) => value.rules.map((rule) => hosted(rule, target)));
        const lines = [`${rules.length} rules`, ...rules.map((rule) => `${rule.host === undefined ? '' : `${rule.host}/`}${rule.rule_id}${rule.name === undefined ? '' : ` ${rule.name}`}: on ${rule.trigger.type}, ${rule.action.type} (${rule.fired} fired, ${rule.skipped} skipped, ${rule.failed} failed)`)];
        for (const { host: name, error } of unreachable) lines.push(`${name}: unreachable (${error})`);
        return answer({ rules, ...(unreachable.length > 0 ? { unreachable } : {}) }, lines.join('\n'));
      }),
  );

  server.registerTool(
    'remove_rule',
    {
      title: 'Take a standing order back',
      description: 'Removes an event rule by its id (r3) or name: it fires no more.',
      inputSchema: toolInput(z.object({ rule: z.string().describe('its id or name'), host })),
      outputSchema: hostedRule,
    },
    ({ rule: target, host: name }) =>
      guarded(async () => {
        const where = context.host(name);
        const { rule } = await where.client.call('rules.remove', { rule_id: target });
        return answer(hosted(rule, where), `removed ${rule.rule_id}`);
      }),
  );
}
