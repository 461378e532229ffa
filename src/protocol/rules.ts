/**
 * Event rules (docs/protocol.md §13.8): what the server does by itself when a pane event
 * happens or a schedule comes round: start an agent, prompt one that is idle, or queue a
 * prompt for one. One schema for the methods, the events and the session file.
 */
import { z } from 'zod';
import { AGENT_STATUSES, READ_SOURCES } from './enums.js';
import { optional } from './optional.js';
import { environment, execText, paneId, workspaceId } from './params.js';
import { matchSchema } from './read-window.js';

/** An agent as a rule names it: its name, its `agent_instance_id`, or the id of its pane. */
const agentTarget = z.string().min(1).max(256);
/** The statuses a rule can wait for (`unknown` is no news). */
const RULE_STATUSES = AGENT_STATUSES.filter((status) => status !== 'unknown') as ['idle', 'working', 'blocked', 'done'];

export const ruleTriggerSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('agent_status'),
    status: z.enum(RULE_STATUSES).describe('fires when an agent turns this'),
    agent: optional(agentTarget.describe('only this agent (name, instance id or pane id)')),
    kind: optional(z.string().min(1).max(64).describe('only agents of this kind (claude, codex, …)')),
    workspace_id: optional(workspaceId.describe('only agents in this workspace')),
  }),
  z.object({
    type: z.literal('command_finished'),
    exit: optional(
      z.union([z.enum(['any', 'failed', 'succeeded']), z.number().int()]).describe('which exit codes fire it: `failed` is any but 0; a number only that one (default any)'),
    ),
    pane_id: optional(paneId.describe('only this pane')),
    workspace_id: optional(workspaceId.describe('only panes of this workspace')),
  }),
  z
    .object({
      type: z.literal('output_matched'),
      pane_id: optional(paneId.describe('the pane to watch')),
      agent: optional(agentTarget.describe('or the pane of this agent, followed: from when it shows up, and to its next pane')),
      match: matchSchema.describe('what to look for, e.g. {"type": "regex", "value": "^FAIL "}'),
      source: optional(z.enum(READ_SOURCES).describe('what is matched (default recent: the last `lines` lines)')),
      lines: optional(z.number().int().min(1).max(10_000)),
    })
    .describe('fires each time the pattern comes to match (edge triggered, like pane.output_matched)'),
  z.object({
    type: z.literal('schedule'),
    cron: z.string().min(1).max(200).describe('cron syntax: 5 fields (minute first) or 6 (second first)'),
    timezone: optional(z.string().min(1).max(64).describe('an IANA zone (default: the server\'s)')),
  }),
]);
export type RuleTrigger = z.output<typeof ruleTriggerSchema>;

const promptText = z.string().min(1).max(100_000).describe('the prompt; {{pane_id}}, {{agent}}, {{status}}, {{exit_code}}, {{matched_line}}, {{rule_id}} and {{fired_at}} are filled in from the firing');

export const ruleActionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    agent: z.string().min(1).max(64).describe('the name to start it under: nothing is started while an agent of that name is there'),
    kind: optional(z.string().min(1).max(64)),
    command: optional(z.array(execText).min(1).max(256)),
    args: optional(z.array(execText).max(256)),
    cwd: optional(execText),
    env: optional(environment),
  }),
  z.object({
    type: z.literal('prompt'),
    agent: agentTarget.describe('the agent to prompt: its name, instance id or pane id'),
    text: promptText,
  }).describe('written only if the agent is idle or done at that moment (else the firing is skipped: agent_busy)'),
  z.object({
    type: z.literal('queue'),
    agent: agentTarget.describe('the agent to prompt: its name, instance id or pane id'),
    text: promptText,
  }).describe('agent.prompt: written now if the agent is idle, else queued until it is'),
]);
export type RuleAction = z.output<typeof ruleActionSchema>;

const limitSchema = z.object({
  max: z.number().int().min(1).max(10_000).describe('firings at most, e.g. 10'),
  per_s: z.number().int().min(1).max(86_400).describe('in this many seconds, e.g. 60'),
});

/** What `rules.add` takes; the session file keeps it as given. */
export const ruleSpecSchema = z.object({
  name: optional(z.string().min(1).max(64)),
  trigger: ruleTriggerSchema.describe('what sets it off, by `type`: agent_status, command_finished, output_matched or schedule; e.g. {"type": "agent_status", "status": "done", "agent": "builder"}'),
  action: ruleActionSchema.describe('what it does, by `type`: start, prompt or queue; e.g. {"type": "queue", "agent": "reviewer", "text": "Review {{pane_id}}"}'),
  limit: optional(limitSchema.describe('at most `max` firings every `per_s` seconds (default 60 a minute: a safety valve, the loop guard is what stops loops); the rest are skipped: rate_limited')),
  loop_guard: optional(
    z.number().int().min(1).max(10_000).describe('at most this many firings a minute caused by the rule\'s own actions, directly or through other rules (default 5); the rest are skipped: loop_guard'),
  ),
});
export type RuleSpec = z.output<typeof ruleSpecSchema>;

export const DEFAULT_RULE_LIMIT = { max: 60, per_s: 60 } as const;
export const DEFAULT_LOOP_GUARD = 5;

export const ruleInfoSchema = z.object({
  rule_id: z.string().describe('`r<N>`, kept across restarts'),
  name: z.string().optional(),
  trigger: ruleTriggerSchema,
  action: ruleActionSchema,
  limit: limitSchema,
  loop_guard: z.number().int(),
  created_at: z.number().int().min(0),
  fired: z.number().int().min(0).describe('firings whose action ran'),
  skipped: z.number().int().min(0),
  failed: z.number().int().min(0),
  last_fired_at: z.number().int().min(0).optional(),
  next_run_at: z.number().int().min(0).optional().describe('a schedule\'s next time, ms since the Unix epoch'),
  watching: z.boolean().optional().describe('an output rule: whether its pane is there to be watched'),
});
export type RuleInfo = z.output<typeof ruleInfoSchema>;

export const RULE_OUTCOMES = ['done', 'skipped', 'failed'] as const;
export type RuleOutcome = (typeof RULE_OUTCOMES)[number];
export const RULE_SKIP_REASONS = ['rate_limited', 'loop_guard', 'agent_busy', 'already_running'] as const;
export type RuleSkipReason = (typeof RULE_SKIP_REASONS)[number];

/** What set a firing off, as the `rule.fired` event tells it. */
export const firingCauseSchema = z.object({
  type: z.enum(['agent_status', 'command_finished', 'output_matched', 'schedule']),
  pane_id: z.string().optional(),
  workspace_id: z.string().optional(),
  agent: z.string().optional(),
  agent_status: z.string().optional(),
  exit_code: z.number().int().optional(),
  matched_line: z.string().optional(),
});
export type FiringCause = z.output<typeof firingCauseSchema>;

export const RULE_EVENT_DATA = {
  'rule.fired': z.object({
    rule_id: z.string(),
    name: z.string().optional(),
    firing: z.number().int().min(1).describe('this rule\'s firings so far, this one included'),
    cause: firingCauseSchema,
    action: z.enum(['start', 'prompt', 'queue']),
    outcome: z.enum(RULE_OUTCOMES),
    reason: z.string().optional().describe('skipped: rate_limited, loop_guard, agent_busy or already_running; failed: the error'),
    target_pane_id: z.string().optional().describe('the pane the action reached'),
    agent_instance_id: z.string().optional(),
    turn_id: z.string().optional().describe('prompt and queue: the turn (its key is `rule:<rule_id>:<firing>`)'),
  }),
} as const;
export type RuleFired = z.output<(typeof RULE_EVENT_DATA)['rule.fired']>;
