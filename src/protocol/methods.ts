/**
 * One entry per socket method (docs/protocol.md §5, §5.1): its params schema (validated at
 * the server's edge) and, in `METHOD_RESULTS`, its result. The server's router,
 * the client library and the CLI all take their types from here.
 */
import { z } from 'zod';
import { eventLineSchema } from './events.js';
import { AGENT_STATES, READ_SOURCES, paneInfoSchema, paneReadSchema, serverStatsSchema, workspaceInfoSchema } from './objects.js';
import { paneStreamStartedSchema } from './pane-stream.js';

// herdr's clients may send `null` for an absent optional field (serde `Option`).
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const workspaceId = z.string();
const paneId = z.string();
const dimension = z.number().int().min(1).max(1000);
const keys = z.array(z.string());
export const MAX_READ_LINES = 10_000;

/** Text that reaches exec(2) or the environment, where a NUL byte would silently cut it short. */
const execText = z.string().refine((text) => !text.includes('\0'), 'must not contain a NUL byte');
/** Environment additions. A name must split `NAME=value` where the client meant: `A=B` would set A, and could shadow HERDR_*. */
const environment = z.record(z.string(), execText).superRefine((env, context) => {
  for (const name of Object.keys(env)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      context.addIssue({ code: 'custom', path: [name], message: 'an environment name must be non-empty, without "=" or NUL' });
    }
  }
});

/** A label is shown in lists and kept in retained events (workspace_created): bounded, like every text the server keeps. */
export const MAX_LABEL_CHARS = 1024;
const label = z.string().max(MAX_LABEL_CHARS);

/** Extra params of `workspace.create` and `pane.split` (docs/protocol.md §5). */
const spawnOptions = {
  label: optional(label),
  command: optional(z.array(execText).min(1, 'command needs at least the program')),
  env: optional(environment),
  cols: optional(dimension),
  rows: optional(dimension),
};

const empty = z.object({});

/** herdr 0.2.0's match shape: `{type: "substring" | "regex", value}`. */
export const matchSchema = z.object({ type: z.enum(['substring', 'regex']), value: z.string() });
export type MatchSpec = z.output<typeof matchSchema>;

const readWindow = {
  pane_id: paneId,
  source: z.enum(READ_SOURCES),
  lines: optional(z.number().int().min(0)),
  strip_ansi: optional(z.boolean()),
};
const timeoutMs = optional(z.number().int().min(0));

export const LIFECYCLE_KINDS = [
  'workspace.created',
  'workspace.closed',
  'workspace.focused',
  'pane.created',
  'pane.closed',
  'pane.focused',
  'pane.exited',
  'pane.agent_detected',
] as const;
export type LifecycleKind = (typeof LIFECYCLE_KINDS)[number];

/** The two kinds of docs/protocol.md §10.5–10.6 take an optional pane; without it they watch every pane. */
const anyPane = { pane_id: optional(paneId) };

export const subscriptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.enum(LIFECYCLE_KINDS) }),
  z.object({ type: z.literal('pane.output_matched'), ...readWindow, match: matchSchema }),
  z.object({
    type: z.literal('pane.agent_state_changed'),
    pane_id: optional(paneId),
    state: optional(z.enum(AGENT_STATES)),
    initial: optional(z.boolean()),
  }),
  z.object({ type: z.literal('pane.command_finished'), ...anyPane }),
  z.object({ type: z.literal('pane.notification'), ...anyPane }),
  z.object({ type: z.literal('server.restored') }),
]);
export type Subscription = z.output<typeof subscriptionSchema>;

/** Event names `events.wait` can wait for: the lifecycle names and the agent state change. */
export const WAITABLE_EVENTS = [
  'workspace_created',
  'workspace_closed',
  'workspace_focused',
  'pane_created',
  'pane_closed',
  'pane_focused',
  'pane_exited',
  'pane_agent_detected',
  'pane.agent_state_changed',
  'pane.command_finished',
  'pane.notification',
] as const;

/**
 * A hook's sequence number (docs/protocol.md §10.5): a non-negative integer up to 2^64-1, compared exactly.
 * Hooks send nanosecond clocks (~1.8e18, past 2^53): the router parses such lines losslessly, so large
 * values arrive as bigint.
 */
const hookSeq = optional(
  z
    .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.bigint().min(0n).max(2n ** 64n - 1n)])
    .transform((value) => BigInt(value))
    .describe('a non-negative integer below 2^64, compared exactly'),
);
const hookFields = {
  pane_id: paneId,
  source: z.string().min(1).max(256),
  seq: hookSeq,
};
/** Checked by the handler, so an empty or blank label gets its own error code (`invalid_agent`). */
const agentLabel = z.string().max(256);
const sessionRef = {
  agent_session_id: optional(z.string().max(4096)),
  agent_session_path: optional(z.string().max(4096)),
};

export const METHOD_PARAMS = {
  ping: empty,
  'workspace.list': empty,
  'workspace.get': z.object({ workspace_id: workspaceId }),
  'workspace.create': z.object({ cwd: optional(execText), focus: optional(z.boolean()), ...spawnOptions }),
  'workspace.focus': z.object({ workspace_id: workspaceId }),
  'workspace.rename': z.object({ workspace_id: workspaceId, label }),
  'workspace.close': z.object({ workspace_id: workspaceId }),
  'pane.list': z.object({ workspace_id: optional(workspaceId) }),
  'pane.get': z.object({ pane_id: paneId }),
  'pane.read': z.object({
    pane_id: paneId,
    source: z.enum(READ_SOURCES),
    lines: optional(z.number().int().min(0)),
    strip_ansi: optional(z.boolean()),
  }),
  'pane.send_text': z.object({ pane_id: paneId, text: z.string() }),
  'pane.send_keys': z.object({ pane_id: paneId, keys }),
  'pane.send_input': z.object({ pane_id: paneId, text: z.string(), keys: optional(keys) }),
  'pane.split': z.object({
    target_pane_id: paneId,
    direction: z.enum(['right', 'down']),
    cwd: optional(execText),
    focus: optional(z.boolean()),
    ...spawnOptions,
  }),
  'pane.close': z.object({ pane_id: paneId }),
  'pane.resize': z.object({ pane_id: paneId, cols: dimension, rows: dimension }),
  'pane.wait_for_output': z.object({ ...readWindow, match: matchSchema, timeout_ms: timeoutMs }),
  'events.subscribe': z.object({
    subscriptions: z.array(z.unknown()),
    since: optional(z.number().int().min(0)),
  }),
  'pane.stream': z.object({ pane_id: paneId }),
  'events.wait': z.object({
    match_event: z.object({
      event: z.enum(WAITABLE_EVENTS),
      pane_id: optional(z.string()),
      workspace_id: optional(z.string()),
      agent: optional(z.string()),
      state: optional(z.enum(AGENT_STATES)),
    }),
    timeout_ms: timeoutMs,
  }),
  'server.stop': empty,
  'server.stats': empty,
  'pane.report_agent': z.object({
    ...hookFields,
    agent: agentLabel,
    state: z.enum(AGENT_STATES),
    message: optional(z.string()),
    ...sessionRef,
  }),
  'pane.release_agent': z.object({ ...hookFields, agent: agentLabel }),
  'pane.clear_agent_authority': z.object({ pane_id: paneId, source: optional(z.string().max(256)), seq: hookSeq }),
  'pane.report_agent_session': z.object({
    ...hookFields,
    agent: agentLabel,
    ...sessionRef,
    session_start_source: optional(z.string().max(256)),
  }),
} as const;

export type MethodName = keyof typeof METHOD_PARAMS;
/** Params after validation (defaults not yet applied). */
export type MethodParams<M extends MethodName> = z.output<(typeof METHOD_PARAMS)[M]>;
/** Params as a client writes them. */
export type MethodInput<M extends MethodName> = z.input<(typeof METHOD_PARAMS)[M]>;

const ok = z.object({ type: z.literal('ok') });
const workspaceResult = z.object({ type: z.literal('workspace_info'), workspace: workspaceInfoSchema });
const paneResult = z.object({ type: z.literal('pane_info'), pane: paneInfoSchema });

/** Each method's result, as the server answers it (docs/protocol.md §5). */
export const METHOD_RESULTS = {
  ping: z.object({ type: z.literal('pong'), version: z.string() }),
  'workspace.list': z.object({ type: z.literal('workspace_list'), workspaces: z.array(workspaceInfoSchema) }),
  'workspace.get': workspaceResult,
  'workspace.create': workspaceResult,
  'workspace.focus': workspaceResult,
  'workspace.rename': workspaceResult,
  'workspace.close': ok,
  'pane.list': z.object({ type: z.literal('pane_list'), panes: z.array(paneInfoSchema) }),
  'pane.get': paneResult,
  'pane.read': z.object({ type: z.literal('pane_read'), read: paneReadSchema }),
  'pane.send_text': ok,
  'pane.send_keys': ok,
  'pane.send_input': ok,
  'pane.split': paneResult,
  'pane.close': ok,
  'pane.resize': paneResult,
  'pane.wait_for_output': z.object({
    type: z.literal('output_matched'),
    pane_id: z.string(),
    revision: z.number().int().min(0),
    matched_line: z.string(),
    read: paneReadSchema,
  }),
  'events.subscribe': z.object({ type: z.literal('subscription_started') }),
  'pane.stream': paneStreamStartedSchema,
  'events.wait': z.object({ type: z.literal('event_matched'), event: eventLineSchema }),
  'server.stop': ok,
  'server.stats': serverStatsSchema.extend({ type: z.literal('server_stats') }),
  'pane.report_agent': ok,
  'pane.release_agent': ok,
  'pane.clear_agent_authority': ok,
  'pane.report_agent_session': ok,
} as const satisfies Record<MethodName, z.ZodType>;

export type MethodResults = { [M in MethodName]: z.output<(typeof METHOD_RESULTS)[M]> };

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHOD_PARAMS, name);
}

/** A zod failure as one line naming the fields, e.g. `pane_id: expected string, received undefined`. */
export function describeParamsError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** A subscription as a client writes it (optional fields may be left out). */
export type SubscriptionSpec = z.input<typeof subscriptionSchema>;
