/**
 * herdr's plugins as they travel on the wire (docs/protocol.md §16): a linked plugin with
 * its manifest's entrypoints, an action, one run of a plugin command, a plugin's pane, the
 * context an action is invoked in. Shapes are herdr's current protocol's; arrays herdr
 * leaves out when empty are optional here and left out the same way.
 */
import { z } from 'zod';
import { AGENT_STATUSES } from './enums.js';
import { paneInfoSchema, workspaceWorktreeSchema } from './objects.js';
import { optional } from './optional.js';

/**
 * The herdr release whose plugin API this server implements (protocol 22 is herdr 0.9's):
 * a manifest whose `min_herdr_version` is newer is refused, as herdr refuses it.
 */
export const PLUGIN_API_HERDR_VERSION = '0.9.0';

export const PLUGIN_PLATFORMS = ['linux', 'macos', 'windows'] as const;
export const PLUGIN_ACTION_CONTEXTS = ['global', 'workspace', 'tab', 'pane', 'selection'] as const;
export const PLUGIN_PANE_PLACEMENTS = ['overlay', 'popup', 'split', 'tab', 'zoomed'] as const;
export type PluginPanePlacement = (typeof PLUGIN_PANE_PLACEMENTS)[number];
export const PLUGIN_COMMAND_STATUSES = ['running', 'succeeded', 'failed'] as const;

/** herdr's PopupSize: cells (0–65535), or a percentage of the terminal such as `"80%"`. */
export const popupSizeSchema = z.union([z.number().int().min(0).max(65535), z.string().regex(/^(100|[1-9][0-9]?)%$/)]);

const platforms = z.array(z.enum(PLUGIN_PLATFORMS)).optional().describe('where it runs; absent: not declared');
const argv = z.array(z.string()).describe('an argv, run directly (never through a shell) in the plugin\'s directory');

export const pluginSourceSchema = z.object({
  kind: z.enum(['local', 'github']),
  owner: z.string().optional(),
  repo: z.string().optional(),
  subdir: z.string().optional(),
  requested_ref: z.string().optional(),
  resolved_commit: z.string().optional(),
  managed_path: z.string().optional(),
  installed_unix_ms: z.number().int().min(0).optional(),
});

const manifestAction = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  contexts: z.array(z.enum(PLUGIN_ACTION_CONTEXTS)).optional(),
  platforms,
  command: argv,
});
const manifestPane = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  platforms,
  placement: z.enum(PLUGIN_PANE_PLACEMENTS),
  width: popupSizeSchema.optional(),
  height: popupSizeSchema.optional(),
  command: argv,
});
const manifestCommand = z.object({ platforms, command: argv });
const manifestEventHook = z.object({ on: z.string(), platforms, command: argv });
const manifestLinkHandler = z.object({ id: z.string(), title: z.string(), pattern: z.string(), action: z.string(), platforms });

/** herdr's InstalledPluginInfo: a linked plugin, its manifest as read now, and what is wrong with it. */
export const installedPluginSchema = z.object({
  plugin_id: z.string(),
  name: z.string(),
  version: z.string(),
  min_herdr_version: z.string(),
  description: z.string().optional(),
  manifest_path: z.string(),
  plugin_root: z.string(),
  enabled: z.boolean(),
  platforms,
  build: z.array(manifestCommand).optional(),
  startup: z.array(manifestCommand).optional(),
  actions: z.array(manifestAction).optional(),
  events: z.array(manifestEventHook).optional(),
  panes: z.array(manifestPane).optional(),
  link_handlers: z.array(manifestLinkHandler).optional(),
  source: pluginSourceSchema,
  warnings: z.array(z.string()).optional().describe('what is wrong but not fatal: an unknown event name, no platforms declared, a manifest that can no longer be read'),
});
export type InstalledPlugin = z.output<typeof installedPluginSchema>;
export type ManifestAction = z.output<typeof manifestAction>;
export type ManifestPane = z.output<typeof manifestPane>;
export type ManifestCommand = z.output<typeof manifestCommand>;
export type ManifestEventHook = z.output<typeof manifestEventHook>;
export type ManifestLinkHandler = z.output<typeof manifestLinkHandler>;

/** herdr's PluginActionInfo: an action with its plugin, and the platforms that apply to it. */
export const pluginActionSchema = z.object({
  plugin_id: z.string(),
  action_id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  contexts: z.array(z.enum(PLUGIN_ACTION_CONTEXTS)).optional(),
  command: argv,
  platforms,
});
export type PluginAction = z.output<typeof pluginActionSchema>;

/** herdr's PluginCommandLogInfo: one run of a plugin command, its output capped. */
export const pluginCommandLogSchema = z.object({
  log_id: z.string(),
  plugin_id: z.string(),
  action_id: z.string().optional(),
  event: z.string().optional().describe('`startup`, or the event name of an event hook'),
  command: argv,
  status: z.enum(PLUGIN_COMMAND_STATUSES),
  started_unix_ms: z.number().int().min(0),
  finished_unix_ms: z.number().int().min(0).optional(),
  exit_code: z.number().int().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  error: z.string().optional().describe('why it could not run or be waited for'),
});
export type PluginCommandLog = z.output<typeof pluginCommandLogSchema>;

/** herdr's PluginInvocationContext as the server answers it (every field optional). */
export const pluginContextSchema = z.object({
  workspace_id: z.string().optional(),
  workspace_label: z.string().optional(),
  workspace_cwd: z.string().optional(),
  worktree: workspaceWorktreeSchema.optional(),
  tab_id: z.string().optional(),
  tab_label: z.string().optional(),
  focused_pane_id: z.string().optional(),
  focused_pane_cwd: z.string().optional(),
  focused_pane_agent: z.string().optional(),
  focused_pane_status: z.enum(AGENT_STATUSES).optional(),
  selected_text: z.string().optional(),
  invocation_source: z.string().optional(),
  correlation_id: z.string().optional(),
  clicked_url: z.string().optional(),
  link_handler_id: z.string().optional(),
});
export type PluginContext = z.output<typeof pluginContextSchema>;

const contextText = optional(z.string().max(65536));
/** The context a client may give `plugin.action.invoke` (nulls read as absent); its fields win over the server's. */
export const pluginContextParams = z.object({
  workspace_id: contextText,
  workspace_label: contextText,
  workspace_cwd: contextText,
  worktree: optional(workspaceWorktreeSchema),
  tab_id: contextText,
  tab_label: contextText,
  focused_pane_id: contextText,
  focused_pane_cwd: contextText,
  focused_pane_agent: contextText,
  focused_pane_status: optional(z.enum(AGENT_STATUSES)),
  selected_text: contextText,
  invocation_source: contextText,
  correlation_id: contextText,
  clicked_url: contextText,
  link_handler_id: contextText,
});

/** herdr's PluginPaneInfo: a plugin's pane, a real pane of the server. */
export const pluginPaneSchema = z.object({
  plugin_id: z.string(),
  entrypoint: z.string().describe('the manifest\'s `[[panes]] id` it was opened from'),
  pane: paneInfoSchema,
});
