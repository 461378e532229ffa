/**
 * Method-table entries for the agent API (docs/protocol.md §13): an agent is named by a
 * target (its `agent_instance_id`, the id of the pane that hosts it, or its name), started,
 * prompted and waited on by the server; spread into `METHODS` (methods.ts).
 */
import { z } from 'zod';
import { turnInfoSchema } from '../turns.js';
import { AGENT_STATUSES, READ_SOURCES } from '../enums.js';
import { agentExplanationSchema, agentInfoSchema, paneReadSchema } from '../objects.js';
import { optional } from '../optional.js';
import { type MethodEntry, empty, environment, execText, keys, label, ok, paneId } from '../params.js';
import { readWindowFields } from '../read-window.js';

/** An agent's instance id, the id of the pane hosting it, or its name (docs/protocol.md §13.1). */
const target = z.string().min(1).max(256);
const agentResult = z.object({ type: z.literal('agent_info'), agent: agentInfoSchema });
const turnResult = z.object({ type: z.literal('agent_turn'), turn: turnInfoSchema });
const statuses = z.array(z.enum(AGENT_STATUSES)).max(AGENT_STATUSES.length);
/** An hour: a wait longer than that is a client's own loop. */
const waitTimeout = z.number().int().min(1).max(3_600_000);

/** How long agent.start waits for the agent to be ready by default, and at most. */
export const DEFAULT_AGENT_START_TIMEOUT_MS = 30_000;
/** How long a prompt may leave the agent's state unchanged before the wait says it stalled. */
export const DEFAULT_PROMPT_STALL_MS = 5_000;

export const AGENT_METHODS = {
  'agent.list': {
    params: empty,
    result: z.object({ type: z.literal('agent_list'), agents: z.array(agentInfoSchema) }),
    changesState: false,
  },
  'agent.get': {
    params: z.object({ target }),
    result: agentResult,
    changesState: false,
  },
  'agent.read': {
    params: z.object({
      target,
      source: z.enum(READ_SOURCES),
      lines: readWindowFields.lines,
      strip_ansi: readWindowFields.strip_ansi,
      format: readWindowFields.format,
    }),
    result: z.object({ type: z.literal('pane_read'), read: paneReadSchema }),
    changesState: false,
  },
  'agent.rename': {
    params: z.object({ target, name: optional(z.string().max(64).nullable()) }),
    result: agentResult,
    changesState: false,
  },
  'agent.focus': {
    params: z.object({ target }),
    result: agentResult,
    changesState: true,
  },
  'agent.start': {
    params: z.object({
      name: optional(z.string().max(64)),
      kind: optional(z.string().min(1).max(64)),
      args: optional(z.array(execText).max(256)),
      command: optional(z.array(execText).min(1, 'command needs at least the program').max(256)),
      pane_id: optional(paneId),
      cwd: optional(execText),
      env: optional(environment),
      label: optional(label),
      focus: optional(z.boolean()),
      timeout_ms: optional(waitTimeout),
      wait: optional(z.boolean()),
    }),
    result: z.object({ type: z.literal('agent_started'), agent: agentInfoSchema, argv: z.array(z.string()) }),
    changesState: true,
  },
  'agent.prompt': {
    params: z.object({
      target,
      text: z.string().max(1_000_000),
      wait: optional(z.object({ until: optional(statuses), timeout_ms: optional(waitTimeout.nullable()) }).nullable()),
      stall_ms: optional(z.number().int().min(100).max(600_000)),
      key: optional(z.string().min(1).max(128).describe('EXT: a client key: a retry with the same key while its turn is kept returns that turn and writes nothing')),
    }),
    result: z.object({
      type: z.literal('agent_prompted'),
      agent: agentInfoSchema,
      turn: turnInfoSchema.describe('EXT: the receipt: queued while the agent is busy or blocked, else written (§13.7)'),
      agent_status_at_submission: z
        .enum(AGENT_STATUSES)
        .optional()
        .describe(
          'EXT: without wait, for a new turn: the agent\'s status when the server took the prompt, before its write (the same as agent.agent_status): ' +
            'what it did before this prompt, never the turn\'s result, which is turn.outcome once the turn finished',
        ),
    }),
    changesState: true,
  },
  'agent.send_keys': {
    params: z.object({ target, keys }),
    result: ok,
    changesState: true,
  },
  'agent.wait': {
    params: z.object({ target, until: optional(statuses), timeout_ms: optional(waitTimeout.nullable()) }),
    result: agentResult,
    changesState: false,
  },
  'agent.turn.get': {
    params: z.object({ turn_id: z.string() }),
    result: turnResult,
    changesState: false,
  },
  'agent.queue.list': {
    params: z.object({ target }),
    result: z.object({ type: z.literal('agent_queue'), turns: z.array(turnInfoSchema).describe('the prompts waiting for the agent, next first') }),
    changesState: false,
  },
  'agent.queue.cancel': {
    params: z.object({ turn_id: z.string() }),
    result: turnResult,
    changesState: true,
  },
  'agent.explain': {
    params: z.object({ target }),
    result: z.object({ type: z.literal('agent_explain'), explain: agentExplanationSchema }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
