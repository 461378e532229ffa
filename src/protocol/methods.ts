/**
 * The socket's methods (docs/protocol.md §5), one entry each in `METHODS`. The
 * server's router, the client library and the CLI all take their types from here.
 */
import { z } from 'zod';
import { DIALECTS } from './dialect.js';
import { RIGHT_CLICK_TARGETS, SPLIT_DIRECTIONS } from './enums.js';
import { WAITABLE_EVENTS, subscriptionEntrySchema } from './event-catalogue.js';
import { optional } from './optional.js';
import { HERDR_WAIT_KINDS, type HerdrWaitKind, eventWaitResult, supportedWaitNames } from './event-wait.js';
import { AGENT_STATES, AGENT_STATUSES, outputMatchSchema, paneInfoSchema, paneReadSchema, serverStatsSchema, tabInfoSchema, workspaceInfoSchema } from './objects.js';
import { paneStreamStartedSchema } from './pane-stream.js';
import { paneBorderResult, paneResizeParams } from './pane-resize.js';
import { matchSchema, readWindowFields } from './read-window.js';
import { AGENT_METHODS } from './methods/agents.js';
import { APPROVAL_METHODS } from './methods/approvals.js';
import { INTEGRATION_METHODS } from './methods/integrations.js';
import { LAYOUT_METHODS } from './methods/layouts.js';
import { NAVIGATION_METHODS } from './methods/navigation.js';
import { PANE_DETAIL_METHODS } from './methods/pane-details.js';
import { PLUGIN_METHODS } from './methods/plugins.js';
import { RULE_METHODS } from './methods/rules.js';
import { NOTIFICATION_METHODS } from './methods/notifications.js';
import { PANE_EXTRA_METHODS } from './methods/pane-extras.js';
import { SCREEN_ONLY_METHODS } from './methods/screen-only.js';
import { SESSION_METHODS } from './methods/session.js';
import { SERVER_CONFIG_METHODS } from './methods/server-config.js';
import { TAB_METHODS } from './methods/tabs.js';
import { WORKTREE_METHODS } from './methods/worktrees.js';
import { type MethodEntry, empty, execText, hookSeq, keys, label, ok, paneId, spawnOptions, timeoutMs, workspaceId } from './params.js';


/** Subscription entries and the names `events.wait` takes come from the event catalogue. */
export { type CheckedSubscriptionSpec, type SubscriptionSpec, WAITABLE_EVENTS, subscriptionSchema } from './event-catalogue.js';

/** Every name `match_event.event` accepts: ours, then herdr's kinds (those without an event here are refused by the handler). */
type WaitName = (typeof WAITABLE_EVENTS)[number] | HerdrWaitKind;
const WAIT_NAMES = [...new Set<WaitName>([...WAITABLE_EVENTS, ...(Object.keys(HERDR_WAIT_KINDS) as HerdrWaitKind[])])] as [WaitName, ...WaitName[]];

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

const workspaceResult = z.object({ type: z.literal('workspace_info'), workspace: workspaceInfoSchema });
const paneResult = z.object({ type: z.literal('pane_info'), pane: paneInfoSchema });

/**
 * One entry per socket method (docs/protocol.md §5): its params (validated at the
 * server's edge), its result as the server answers it, and whether it changes what a
 * session snapshot keeps (the server then asks for a snapshot round).
 */
export const METHODS = {
  ping: {
    params: empty,
    // The extensions are optional here because the client checks answers against this
    // schema, and herdr 0.2.0 itself (or any older server) answers `{type, version}`.
    result: z.object({
      type: z.literal('pong'),
      version: z.string(),
      protocol: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("EXT, always sent here: herdr's protocol number this connection is answered in: 0 for herdr 0.2.0's dialect, 22 for the current one (§15)"),
      capabilities: z
        .object({
          live_handoff: z.boolean().optional(),
          detached_server_daemon: z.boolean().optional(),
          surface_interest: z.boolean().optional(),
          health_check: z.boolean().optional(),
          client_window_title: z.boolean().optional().describe('EXT: client.window_title.* work (false: unsupported here, §5.5)'),
          popups: z.boolean().optional().describe('EXT: popup.close works (false here)'),
          agent_view: z.boolean().optional().describe('EXT: agent.view.* work (false here)'),
          pane_graphics: z.boolean().optional().describe('EXT: pane.graphics.* work (false here)'),
        })
        .nullable()
        .optional()
        .describe("EXT, always sent here: herdr's capability flags, and ours for what herdr draws; each false here"),
      dialect: z.enum(DIALECTS).optional().describe('EXT, always sent here: the dialect this connection is answered in (§15)'),
    }),
    changesState: false,
  },
  'workspace.list': {
    params: empty,
    result: z.object({ type: z.literal('workspace_list'), workspaces: z.array(workspaceInfoSchema) }),
    changesState: false,
  },
  'workspace.get': {
    params: z.object({ workspace_id: workspaceId }),
    result: workspaceResult,
    changesState: false,
  },
  'workspace.create': {
    params: z.object({ cwd: optional(execText), focus: optional(z.boolean()), ...spawnOptions }),
    // herdr 0.2.0's answer, or the current protocol's (§15.3): the dialect decides.
    result: z.union([
      workspaceResult,
      z.object({ type: z.literal('workspace_created'), workspace: workspaceInfoSchema, tab: tabInfoSchema, root_pane: paneInfoSchema }),
    ]),
    changesState: true,
  },
  'workspace.focus': {
    params: z.object({ workspace_id: workspaceId }),
    result: workspaceResult,
    changesState: true,
  },
  'workspace.rename': {
    params: z.object({ workspace_id: workspaceId, label }),
    result: workspaceResult,
    changesState: true,
  },
  'workspace.close': {
    params: z.object({ workspace_id: workspaceId }),
    result: ok,
    changesState: true,
  },
  'pane.list': {
    params: z.object({ workspace_id: optional(workspaceId) }),
    result: z.object({ type: z.literal('pane_list'), panes: z.array(paneInfoSchema) }),
    changesState: false,
  },
  'pane.get': {
    params: z.object({ pane_id: paneId }),
    result: paneResult,
    changesState: false,
  },
  'pane.read': {
    params: z.object(readWindowFields),
    result: z.object({ type: z.literal('pane_read'), read: paneReadSchema }),
    changesState: false,
  },
  'pane.send_text': {
    params: z.object({ pane_id: paneId, text: z.string() }),
    result: ok,
    changesState: true,
  },
  'pane.send_keys': {
    params: z.object({ pane_id: paneId, keys }),
    result: ok,
    changesState: true,
  },
  'pane.send_input': {
    params: z.object({ pane_id: paneId, text: z.string(), keys: optional(keys) }),
    result: ok,
    changesState: true,
  },
  'pane.split': {
    params: z.object({
      target_pane_id: optional(paneId.describe('EXT optional (herdr current): default the focused pane of workspace_id, else of the server')),
      workspace_id: optional(workspaceId.describe('EXT (herdr current): split this workspace\'s focused pane when no target_pane_id')),
      direction: z.enum(SPLIT_DIRECTIONS),
      ratio: optional(z.number().gt(0).lt(1).describe('EXT (herdr current): the share of the target, strictly between 0 and 1 (default 0.5)')),
      right_click: optional(z.enum(RIGHT_CLICK_TARGETS).describe('EXT (herdr current): where a person\'s right click in the new pane goes, as pane.input.set sets it (default herdr)')),
      cwd: optional(execText),
      focus: optional(z.boolean()),
      ...spawnOptions,
    }),
    result: paneResult,
    changesState: true,
  },
  'pane.close': {
    params: z.object({ pane_id: paneId }),
    result: ok,
    changesState: true,
  },
  'pane.resize': {
    params: paneResizeParams,
    result: z.union([paneResult, paneBorderResult]).meta({ type: 'object' }),
    changesState: true,
  },
  'pane.wait_for_output': {
    params: z.object({ ...readWindowFields, match: matchSchema, timeout_ms: timeoutMs }),
    result: outputMatchSchema.extend({ type: z.literal('output_matched'), revision: z.number().int().min(0) }),
    changesState: false,
  },
  'events.subscribe': {
    params: z.object({
      subscriptions: z.array(subscriptionEntrySchema),
      since: optional(z.number().int().min(0)),
    }),
    result: z.object({
      type: z.literal('subscription_started'),
      skipped: z
        .array(z.object({ index: z.number().int().min(0), type: z.string() }))
        .optional()
        .describe('EXT: entries of kinds this server does not have, left out (§9.1); absent when none was'),
    }),
    changesState: false,
  },
  'pane.stream': {
    params: z.object({
      pane_id: paneId,
      look: optional(z.boolean().describe('EXT: false for a glance (a dashboard tile, a watched resource): a `done` agent stays `done`; default true, as an attach')),
    }),
    result: paneStreamStartedSchema,
    changesState: false,
  },
  'events.wait': {
    params: z.object({
      match_event: z.object({
        event: z.enum(WAIT_NAMES, `events.wait waits for one of: ${supportedWaitNames(WAITABLE_EVENTS).join(', ')}`)
          .describe('one of our event names or herdr\'s EventMatch kinds; a herdr kind without an event here is unsupported_event_wait_match'),
        pane_id: optional(z.string()),
        workspace_id: optional(z.string()),
        tab_id: optional(z.string()).describe('herdr\'s tab kinds\' filter'),
        agent: optional(z.string()),
        state: optional(z.enum(AGENT_STATES)),
        agent_status: optional(z.enum(AGENT_STATUSES)),
        label: optional(z.string()).describe('herdr\'s rename kinds\' filter'),
      }),
      timeout_ms: timeoutMs,
    }),
    result: eventWaitResult,
    changesState: false,
  },
  'server.stop': {
    params: empty,
    result: ok,
    changesState: true,
  },
  'server.stats': {
    params: empty,
    result: serverStatsSchema.extend({ type: z.literal('server_stats') }),
    changesState: false,
  },
  'pane.report_agent': {
    params: z.object({
      ...hookFields,
      agent: agentLabel,
      state: z.enum(AGENT_STATES),
      message: optional(z.string()),
      ...sessionRef,
    }),
    result: ok,
    changesState: true,
  },
  'pane.release_agent': {
    params: z.object({ ...hookFields, agent: agentLabel }),
    result: ok,
    changesState: true,
  },
  'pane.clear_agent_authority': {
    params: z.object({ pane_id: paneId, source: optional(z.string().max(256)), seq: hookSeq }),
    result: ok,
    changesState: true,
  },
  'pane.report_agent_session': {
    params: z.object({
      ...hookFields,
      agent: agentLabel,
      ...sessionRef,
      session_start_source: optional(z.string().max(256)),
    }),
    result: ok,
    changesState: true,
  },
  ...AGENT_METHODS,
  ...APPROVAL_METHODS,
  ...INTEGRATION_METHODS,
  ...LAYOUT_METHODS,
  ...NAVIGATION_METHODS,
  ...PANE_DETAIL_METHODS,
  ...PLUGIN_METHODS,
  ...RULE_METHODS,
  ...NOTIFICATION_METHODS,
  ...PANE_EXTRA_METHODS,
  ...SCREEN_ONLY_METHODS,
  ...SESSION_METHODS,
  ...SERVER_CONFIG_METHODS,
  ...WORKTREE_METHODS,
  ...TAB_METHODS,
} as const satisfies Record<string, MethodEntry>;

type MethodTable = typeof METHODS;

function column<K extends keyof MethodEntry>(key: K): { [M in keyof MethodTable]: MethodTable[M][K] } {
  return Object.fromEntries(Object.entries(METHODS).map(([name, entry]) => [name, entry[key]])) as { [M in keyof MethodTable]: MethodTable[M][K] };
}

/** Each method's params schema. */
export const METHOD_PARAMS = column('params');
/** Each method's result schema (docs/protocol.md §5). */
export const METHOD_RESULTS = column('result');

export type MethodName = keyof MethodTable;
/** Params after validation (defaults not yet applied). */
export type MethodParams<M extends MethodName> = z.output<(typeof METHOD_PARAMS)[M]>;
/** Params as a client writes them. */
export type MethodInput<M extends MethodName> = z.input<(typeof METHOD_PARAMS)[M]>;

export type MethodResults = { [M in MethodName]: z.output<(typeof METHOD_RESULTS)[M]> };

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}

/** A zod failure as one line naming the fields, e.g. `pane_id: expected string, received undefined`. */
export function describeParamsError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
