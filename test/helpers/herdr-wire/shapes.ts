/**
 * herdr's wire shapes for its current protocol, written here in zod from the facts of herdr's
 * published API schema (`schemas.success_response`, `schemas.event`,
 * `schemas.subscription_event`): field names, types, which are required, which may be null,
 * and the enums. Objects are loose: this server adds documented extension fields and a herdr
 * client ignores fields it does not know; what would break one — a missing or mistyped field,
 * a value outside an enum, an id of the other dialect — fails.
 */
import { z } from 'zod';
import type { HerdrEventKind } from './names.js';

/** herdr's public ids: `w` and a number in its alphabet; tabs and panes add `:t…` / `:p…`. */
const NUMBER = '[0-9A-Z]+';
export const workspaceId = z.string().regex(new RegExp(`^w${NUMBER}$`), 'a workspace id as herdr writes one (w1)');
export const tabId = z.string().regex(new RegExp(`^w${NUMBER}:t${NUMBER}$`), 'a tab id as herdr writes one (w1:t1)');
export const paneId = z.string().regex(new RegExp(`^w${NUMBER}:p${NUMBER}$`), 'a pane id as herdr writes one (w1:p1)');

const uint = z.number().int().min(0);
const uint16 = uint.max(0xffff);
/** An optional field herdr may also write as `null`. */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();
const stringMap = z.record(z.string(), z.string());
const strings = z.array(z.string());

export const agentStatus = z.enum(['idle', 'working', 'blocked', 'done', 'unknown']);
const splitDirection = z.enum(['right', 'down']);
const paneDirection = z.enum(['left', 'right', 'up', 'down']);
export const readSource = z.enum(['visible', 'recent', 'recent_unwrapped', 'detection']);
const readFormat = z.enum(['text', 'ansi']);
const integrationTarget = z.enum([
  'pi', 'omp', 'claude', 'codex', 'copilot', 'devin', 'droid', 'kimi', 'opencode', 'kilo', 'hermes', 'qodercli',
  'qwen', 'cursor', 'mastracode', 'antigravity_cli', 'grok',
]);

const agentSessionInfo = z.looseObject({ agent: z.string(), kind: z.enum(['id', 'path']), source: z.string(), value: z.string() });
export const paneScrollInfo = z.looseObject({ max_offset_from_bottom: uint, offset_from_bottom: uint, viewport_rows: uint });

/** Fields a pane and an agent share. */
const paneFields = {
  agent: maybe(z.string()),
  agent_session: maybe(agentSessionInfo),
  agent_status: agentStatus,
  cwd: maybe(z.string()),
  display_agent: maybe(z.string()),
  focused: z.boolean(),
  foreground_cwd: maybe(z.string()),
  pane_id: paneId,
  revision: uint,
  state_labels: stringMap.optional(),
  tab_id: tabId,
  terminal_id: z.string(),
  terminal_title: maybe(z.string()),
  terminal_title_stripped: maybe(z.string()),
  title: maybe(z.string()),
  tokens: stringMap.optional(),
  workspace_id: workspaceId,
};
export const paneInfo = z.looseObject({ ...paneFields, label: maybe(z.string()), scroll: maybe(paneScrollInfo) });
export const agentInfo = z.looseObject({
  ...paneFields,
  interactive_ready: z.boolean().optional(),
  launch_pending: z.boolean().optional(),
  name: maybe(z.string()),
  screen_detection_skipped: z.boolean().optional(),
  state_change_seq: uint.optional(),
});

const workspaceWorktreeInfo = z.looseObject({
  checkout_path: z.string(),
  is_linked_worktree: z.boolean(),
  repo_key: z.string(),
  repo_name: z.string(),
  repo_root: z.string(),
});
export const workspaceInfo = z.looseObject({
  active_tab_id: tabId,
  agent_status: agentStatus,
  focused: z.boolean(),
  label: z.string(),
  number: uint,
  pane_count: uint,
  tab_count: uint,
  tokens: stringMap.optional(),
  workspace_id: workspaceId,
  worktree: maybe(workspaceWorktreeInfo),
});
export const tabInfo = z.looseObject({
  agent_status: agentStatus,
  focused: z.boolean(),
  label: z.string(),
  number: uint,
  pane_count: uint,
  tab_id: tabId,
  workspace_id: workspaceId,
});
export const worktreeInfo = z.looseObject({
  branch: maybe(z.string()),
  is_bare: z.boolean(),
  is_detached: z.boolean(),
  is_linked_worktree: z.boolean(),
  is_prunable: z.boolean(),
  label: z.string(),
  open_workspace_id: maybe(workspaceId),
  path: z.string(),
});
const worktreeSourceInfo = z.looseObject({
  repo_key: z.string(),
  repo_name: z.string(),
  repo_root: z.string(),
  source_checkout_path: z.string(),
  source_workspace_id: maybe(workspaceId),
});

const rect = z.looseObject({ height: uint16, width: uint16, x: uint16, y: uint16 });
/** herdr's PaneLayoutSnapshot: a tab's panes and splits as cells. */
export const paneLayoutSnapshot = z.looseObject({
  area: rect,
  focused_pane_id: paneId,
  panes: z.array(z.looseObject({ focused: z.boolean(), pane_id: paneId, rect })),
  splits: z.array(z.looseObject({ direction: splitDirection, id: z.string(), ratio: z.number(), rect })),
  tab_id: tabId,
  workspace_id: workspaceId,
  zoomed: z.boolean(),
});

/** herdr's LayoutNode: a leaf or a split, recursively. */
export type LayoutNode =
  | { type: 'pane'; [key: string]: unknown }
  | { type: 'split'; direction: 'right' | 'down'; ratio: number; first: LayoutNode; second: LayoutNode; [key: string]: unknown };
const layoutNode: z.ZodType<LayoutNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('pane'),
      command: maybe(strings),
      cwd: maybe(z.string()),
      env: stringMap.optional(),
      label: maybe(z.string()),
      pane_id: maybe(paneId),
    }),
    z.looseObject({ type: z.literal('split'), direction: splitDirection, ratio: z.number(), first: layoutNode, second: layoutNode }),
  ]),
);
/** herdr's LayoutDescription: a tab's tree. */
const layoutDescription = z.looseObject({ focused_pane_id: paneId, root: layoutNode, tab_id: tabId, workspace_id: workspaceId, zoomed: z.boolean() });

export const paneReadResult = z.looseObject({
  format: readFormat,
  pane_id: paneId,
  revision: uint,
  source: readSource,
  tab_id: tabId,
  text: z.string(),
  truncated: z.boolean(),
  workspace_id: workspaceId,
});

const processInfo = z.looseObject({
  foreground_process_group_id: maybe(uint),
  foreground_processes: z
    .array(z.looseObject({ argv: maybe(strings), argv0: maybe(z.string()), cmdline: maybe(z.string()), cwd: maybe(z.string()), name: z.string(), pid: uint }))
    .optional(),
  pane_id: paneId,
  shell_pid: maybe(uint),
  tty: maybe(z.string()),
});

const agentManifestInfo = z.looseObject({
  active_version: maybe(z.string()),
  agent: z.string(),
  cached_remote_version: maybe(z.string()),
  local_override_shadowing_remote: z.boolean(),
  remote_last_checked_unix: maybe(uint),
  remote_update_error: maybe(z.string()),
  remote_update_result: maybe(z.string()),
  source: z.string(),
  source_kind: z.string(),
  warning: maybe(z.string()),
});

const platforms = maybe(z.array(z.enum(['linux', 'macos', 'windows'])));
const actionContexts = z.array(z.enum(['global', 'workspace', 'tab', 'pane', 'selection'])).optional();
const popupSize = maybe(z.union([uint, z.string()]));
const installedPlugin = z.looseObject({
  actions: z.array(z.looseObject({ command: strings, contexts: actionContexts, description: maybe(z.string()), id: z.string(), platforms, title: z.string() })).optional(),
  build: z.array(z.looseObject({ command: strings, platforms })).optional(),
  description: maybe(z.string()),
  enabled: z.boolean(),
  events: z.array(z.looseObject({ command: strings, on: z.string(), platforms })).optional(),
  link_handlers: z.array(z.looseObject({ action: z.string(), id: z.string(), pattern: z.string(), platforms, title: z.string() })).optional(),
  manifest_path: z.string(),
  min_herdr_version: z.string().optional(),
  name: z.string(),
  panes: z
    .array(
      z.looseObject({
        command: strings,
        description: maybe(z.string()),
        height: popupSize,
        id: z.string(),
        placement: z.enum(['overlay', 'popup', 'split', 'tab', 'zoomed']).optional(),
        platforms,
        title: z.string(),
        width: popupSize,
      }),
    )
    .optional(),
  platforms,
  plugin_id: z.string(),
  plugin_root: z.string(),
  source: z
    .looseObject({
      installed_unix_ms: maybe(uint),
      kind: z.enum(['local', 'github']).optional(),
      managed_path: maybe(z.string()),
      owner: maybe(z.string()),
      repo: maybe(z.string()),
      requested_ref: maybe(z.string()),
      resolved_commit: maybe(z.string()),
      subdir: maybe(z.string()),
    })
    .optional(),
  startup: z.array(z.looseObject({ command: strings, platforms })).optional(),
  version: z.string(),
  warnings: strings.optional(),
});
const pluginAction = z.looseObject({
  action_id: z.string(),
  command: strings,
  contexts: actionContexts,
  description: maybe(z.string()),
  platforms,
  plugin_id: z.string(),
  title: z.string(),
});
const pluginLog = z.looseObject({
  action_id: maybe(z.string()),
  command: strings,
  error: maybe(z.string()),
  event: maybe(z.string()),
  exit_code: maybe(z.number().int()),
  finished_unix_ms: maybe(uint),
  log_id: z.string(),
  plugin_id: z.string(),
  started_unix_ms: uint,
  status: z.enum(['running', 'succeeded', 'failed']),
  stderr: maybe(z.string()),
  stdout: maybe(z.string()),
});
const invocationContext = z.looseObject({
  clicked_url: maybe(z.string()),
  correlation_id: maybe(z.string()),
  focused_pane_agent: maybe(z.string()),
  focused_pane_cwd: maybe(z.string()),
  focused_pane_id: maybe(paneId),
  focused_pane_status: maybe(agentStatus),
  invocation_source: maybe(z.string()),
  link_handler_id: maybe(z.string()),
  selected_text: maybe(z.string()),
  tab_id: maybe(tabId),
  tab_label: maybe(z.string()),
  workspace_cwd: maybe(z.string()),
  workspace_id: maybe(workspaceId),
  workspace_label: maybe(z.string()),
  worktree: maybe(workspaceWorktreeInfo),
});
const pluginPane = z.looseObject({ entrypoint: z.string(), pane: paneInfo, plugin_id: z.string() });

/** herdr's EventData, by kind: what a lifecycle line's `data` holds besides `type`. */
export const EVENT_DATA = {
  workspace_created: { workspace: workspaceInfo },
  workspace_updated: { workspace: workspaceInfo },
  workspace_metadata_updated: { workspace: workspaceInfo },
  workspace_closed: { workspace: maybe(workspaceInfo), workspace_id: workspaceId },
  workspace_renamed: { label: z.string(), workspace_id: workspaceId },
  workspace_moved: { insert_index: uint, workspace_id: workspaceId, workspaces: z.array(workspaceInfo) },
  workspace_reordered: { before_workspace_id: maybe(workspaceId), workspace_ids: z.array(workspaceId), workspaces: z.array(workspaceInfo) },
  workspace_focused: { workspace_id: workspaceId },
  worktree_created: { workspace: workspaceInfo, worktree: worktreeInfo },
  worktree_opened: { already_open: z.boolean(), workspace: workspaceInfo, worktree: worktreeInfo },
  worktree_removed: { forced: z.boolean(), workspace: maybe(workspaceInfo), workspace_id: workspaceId, worktree: worktreeInfo },
  tab_created: { tab: tabInfo },
  tab_closed: { tab_id: tabId, workspace_id: workspaceId },
  tab_renamed: { label: z.string(), tab_id: tabId, workspace_id: workspaceId },
  tab_moved: { insert_index: uint, tab_id: tabId, tabs: z.array(tabInfo), workspace_id: workspaceId },
  tab_focused: { tab_id: tabId, workspace_id: workspaceId },
  pane_created: { pane: paneInfo },
  pane_closed: { pane_id: paneId, workspace_id: workspaceId },
  pane_updated: { pane: paneInfo },
  pane_focused: { pane_id: paneId, workspace_id: workspaceId },
  pane_moved: {
    closed_tab_id: maybe(tabId),
    closed_workspace_id: maybe(workspaceId),
    created_tab: maybe(tabInfo),
    created_workspace: maybe(workspaceInfo),
    pane: paneInfo,
    previous_pane_id: paneId,
    previous_tab_id: tabId,
    previous_workspace_id: workspaceId,
  },
  pane_output_changed: { pane_id: paneId, revision: uint, workspace_id: workspaceId },
  pane_exited: { pane_id: paneId, workspace_id: workspaceId },
  pane_agent_detected: { agent: maybe(z.string()), final_status: maybe(agentStatus), pane_id: paneId, released: z.boolean().optional(), workspace_id: workspaceId },
  pane_agent_status_changed: {
    agent: maybe(z.string()),
    agent_status: agentStatus,
    display_agent: maybe(z.string()),
    pane_id: paneId,
    state_labels: stringMap.optional(),
    title: maybe(z.string()),
    workspace_id: workspaceId,
  },
  layout_updated: { layout: paneLayoutSnapshot },
} satisfies Record<HerdrEventKind, z.ZodRawShape>;

/** herdr's EventEnvelope of one kind: `{event: kind, data: {type: kind, …}}`. */
export function eventEnvelope(kind: HerdrEventKind) {
  return z.looseObject({ event: z.literal(kind), data: z.looseObject({ type: z.literal(kind), ...EVENT_DATA[kind] }) });
}
const anyEventEnvelope = z.union(
  (Object.keys(EVENT_DATA) as HerdrEventKind[]).map(eventEnvelope) as unknown as [ReturnType<typeof eventEnvelope>, ...Array<ReturnType<typeof eventEnvelope>>],
);

/** herdr's subscription-only lines: dotted names, no `type` in the data. */
export const SUBSCRIPTION_EVENT_DATA = {
  'pane.output_matched': z.looseObject({ matched_line: z.string(), pane_id: paneId, read: paneReadResult }),
  'pane.agent_status_changed': z.looseObject(EVENT_DATA.pane_agent_status_changed),
  'pane.scroll_changed': z.looseObject({ pane_id: paneId, scroll: paneScrollInfo, workspace_id: workspaceId }),
} as const;

const swap = z.looseObject({
  changed: z.boolean(),
  focused_pane_id: paneId,
  layout: paneLayoutSnapshot,
  reason: maybe(z.enum(['no_neighbor', 'same_pane', 'not_found', 'cross_tab'])),
  source_pane_id: paneId,
  target_pane_id: maybe(paneId),
});
const moveResult = z.looseObject({
  changed: z.boolean(),
  closed_tab_id: maybe(tabId),
  closed_workspace_id: maybe(workspaceId),
  created_tab: maybe(tabInfo),
  created_workspace: maybe(workspaceInfo),
  focused_pane_id: paneId,
  pane: paneInfo,
  previous_pane_id: paneId,
  previous_tab_id: tabId,
  previous_workspace_id: workspaceId,
  reason: maybe(z.enum(['same_tab', 'zoomed_tab'])),
  source_layout: maybe(paneLayoutSnapshot),
  target_layout: paneLayoutSnapshot,
});
const zoom = z.looseObject({
  changed: z.boolean(),
  focus_changed: z.boolean(),
  focused_pane_id: paneId,
  layout: paneLayoutSnapshot,
  pane_id: paneId,
  reason: maybe(z.enum(['single_pane', 'already_zoomed', 'already_unzoomed'])),
  zoom_changed: z.boolean(),
  zoomed: z.boolean(),
});

/** Each success result herdr defines that a method here answers with, by its `type`. */
const RESULT_FIELDS = {
  pong: { capabilities: maybe(z.looseObject({ detached_server_daemon: z.boolean().optional(), live_handoff: z.boolean() })), protocol: uint, version: z.string() },
  session_snapshot: {
    snapshot: z.looseObject({
      agents: z.array(agentInfo),
      focused_pane_id: maybe(paneId),
      focused_tab_id: maybe(tabId),
      focused_workspace_id: maybe(workspaceId),
      layouts: z.array(paneLayoutSnapshot),
      panes: z.array(paneInfo),
      protocol: uint,
      tabs: z.array(tabInfo),
      version: z.string(),
      workspaces: z.array(workspaceInfo),
    }),
  },
  workspace_info: { workspace: workspaceInfo },
  workspace_created: { root_pane: paneInfo, tab: tabInfo, workspace: workspaceInfo },
  workspace_list: { workspaces: z.array(workspaceInfo) },
  worktree_list: { source: worktreeSourceInfo, worktrees: z.array(worktreeInfo) },
  worktree_created: { root_pane: paneInfo, tab: tabInfo, workspace: workspaceInfo, worktree: worktreeInfo },
  worktree_opened: { already_open: z.boolean(), root_pane: paneInfo, tab: tabInfo, workspace: workspaceInfo, worktree: worktreeInfo },
  worktree_removed: { forced: z.boolean(), path: z.string(), workspace_id: workspaceId },
  tab_info: { tab: tabInfo },
  tab_created: { root_pane: paneInfo, tab: tabInfo },
  tab_list: { tabs: z.array(tabInfo) },
  agent_info: { agent: agentInfo },
  agent_started: { agent: agentInfo, argv: strings },
  agent_prompted: { agent: agentInfo },
  agent_list: { agents: z.array(agentInfo) },
  pane_info: { pane: paneInfo },
  pane_list: { panes: z.array(paneInfo) },
  pane_current: { pane: paneInfo },
  pane_swap: { swap },
  pane_move: { move_result: moveResult },
  pane_zoom: { zoom },
  pane_layout: { layout: paneLayoutSnapshot },
  pane_process_info: { process_info: processInfo },
  layout_export: { layout: layoutDescription },
  layout_apply: { layout: layoutDescription },
  layout_split_ratio_set: { layout: layoutDescription },
  pane_neighbor: { neighbor: z.looseObject({ direction: paneDirection, layout: paneLayoutSnapshot, neighbor_pane_id: maybe(paneId), pane_id: paneId }) },
  pane_edges: { edges: z.looseObject({ down: z.boolean(), layout: paneLayoutSnapshot, left: z.boolean(), pane_id: paneId, right: z.boolean(), up: z.boolean() }) },
  pane_focus_direction: {
    focus: z.looseObject({ changed: z.boolean(), focused_pane_id: maybe(paneId), layout: paneLayoutSnapshot, reason: maybe(z.enum(['no_neighbor'])), source_pane_id: paneId }),
  },
  pane_resize: {
    resize: z.looseObject({ changed: z.boolean(), focused_pane_id: paneId, layout: paneLayoutSnapshot, pane_id: paneId, reason: maybe(z.enum(['unchanged'])) }),
  },
  pane_read: { read: paneReadResult },
  agent_explain: { explain: z.unknown().refine((value) => value !== undefined, 'explain is required') },
  subscription_started: {},
  wait_matched: { event: anyEventEnvelope },
  output_matched: { matched_line: maybe(z.string()), pane_id: paneId, read: paneReadResult, revision: uint },
  notification_show: { reason: z.enum(['shown', 'disabled', 'rate_limited', 'no_foreground_client', 'busy']), shown: z.boolean() },
  integration_install: { details: z.looseObject({ messages: strings }), target: integrationTarget },
  integration_uninstall: { details: z.looseObject({ messages: strings }), target: integrationTarget },
  agent_manifest_reload: { manifests: z.array(agentManifestInfo) },
  agent_manifest_status: { last_check_unix: maybe(uint), last_result: maybe(z.string()), manifests: z.array(agentManifestInfo) },
  plugin_linked: { plugin: installedPlugin },
  plugin_list: { plugins: z.array(installedPlugin) },
  plugin_unlinked: { plugin_id: z.string(), removed: z.boolean() },
  plugin_enabled: { plugin: installedPlugin },
  plugin_disabled: { plugin: installedPlugin },
  plugin_action_list: { actions: z.array(pluginAction) },
  plugin_action_invoked: { action: pluginAction, context: invocationContext, log: pluginLog },
  plugin_log_list: { logs: z.array(pluginLog) },
  plugin_pane_opened: { plugin_pane: pluginPane },
  plugin_pane_focused: { plugin_pane: pluginPane },
  plugin_pane_closed: { pane_id: paneId },
  config_reload: { diagnostics: strings, status: z.enum(['applied', 'partial', 'failed']) },
  ok: {},
} satisfies Record<string, z.ZodRawShape>;

/**
 * Results of the protocol-22 methods herdr's published schema does not describe. No herdr
 * facts exist for these here: the shapes are this server's documented ones
 * (docs/protocol.md §5.4, §5.6, §13.9), in the current dialect's ids.
 */
const cell = z.looseObject({ row: z.number().int(), col: uint });
const PROTOCOL_22_RESULT_FIELDS = {
  pane_scroll: { scroll: z.looseObject({ changed: z.boolean(), pane_id: paneId, workspace_id: workspaceId, scroll: paneScrollInfo }) },
  pane_selection: {
    selection: z.looseObject({ pane_id: paneId, workspace_id: workspaceId, tab_id: tabId, text: z.string(), start: cell, end: cell, mode: z.enum(['stream', 'block']), revision: uint }),
  },
  integration_list: { integrations: z.array(z.looseObject({ target: z.string(), installed: z.boolean() })) },
} satisfies Record<string, z.ZodRawShape>;

const ALL_RESULTS = { ...RESULT_FIELDS, ...PROTOCOL_22_RESULT_FIELDS };
export type ResultType = keyof typeof ALL_RESULTS;

/** The success envelope of one result type: `{id, result: {type, …}}`. */
export function successEnvelope(type: ResultType, id: string) {
  return z.looseObject({ id: z.literal(id), result: z.looseObject({ type: z.literal(type), ...ALL_RESULTS[type] }) });
}

/** herdr's ErrorResponse. */
export function errorEnvelope(id: string) {
  return z.looseObject({ id: z.literal(id), error: z.looseObject({ code: z.string(), message: z.string() }) });
}
