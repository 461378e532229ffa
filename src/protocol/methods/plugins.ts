/**
 * `plugin.*` (docs/protocol.md §16, herdr's current protocol): plugins linked from a
 * directory with a `herdr-plugin.toml`, their actions run as argv with herdr's plugin
 * environment, their panes opened as real panes, their runs kept in a log. Spread into `METHODS`.
 */
import { z } from 'zod';
import { SPLIT_DIRECTIONS } from '../enums.js';
import { optional } from '../optional.js';
import { type MethodEntry, environment, execText } from '../params.js';
import {
  PLUGIN_PANE_PLACEMENTS,
  installedPluginSchema,
  pluginActionSchema,
  pluginCommandLogSchema,
  pluginContextParams,
  pluginContextSchema,
  pluginPaneSchema,
  popupSizeSchema,
} from '../plugins.js';

/** Checked by the handler against herdr's id rules (`invalid_plugin_id`); bounded here. */
const pluginId = z.string().max(4096).describe('the manifest\'s `id`');
const pluginFilter = { plugin_id: optional(pluginId.describe('only this plugin')) };
const path = execText.max(4096);

/** herdr's PluginSourceInfo as a client may send it (`kind` defaults to local; nulls read as absent). */
const sourceParams = z.object({
  kind: optional(z.enum(['local', 'github'])),
  owner: optional(z.string()),
  repo: optional(z.string()),
  subdir: optional(z.string()),
  requested_ref: optional(z.string()),
  resolved_commit: optional(z.string()),
  managed_path: optional(z.string()),
  installed_unix_ms: optional(z.number().int().min(0)),
});

const pluginResult = <T extends string>(type: T) => z.object({ type: z.literal(type), plugin: installedPluginSchema });

export const PLUGIN_METHODS = {
  'plugin.link': {
    params: z.object({
      path: path.describe('the plugin\'s directory (or its herdr-plugin.toml); relative to the server\'s directory'),
      enabled: optional(z.boolean().describe('default true')),
      source: optional(sourceParams.describe('where it came from; only `local` here')),
    }),
    result: pluginResult('plugin_linked'),
    changesState: false,
  },
  'plugin.list': {
    params: z.object(pluginFilter),
    result: z.object({ type: z.literal('plugin_list'), plugins: z.array(installedPluginSchema) }),
    changesState: false,
  },
  'plugin.unlink': {
    params: z.object({ plugin_id: pluginId }),
    result: z.object({ type: z.literal('plugin_unlinked'), plugin_id: z.string(), removed: z.boolean().describe('false when no plugin had that id') }),
    changesState: false,
  },
  'plugin.enable': {
    params: z.object({ plugin_id: pluginId }),
    result: pluginResult('plugin_enabled'),
    changesState: false,
  },
  'plugin.disable': {
    params: z.object({ plugin_id: pluginId }),
    result: pluginResult('plugin_disabled'),
    changesState: false,
  },
  'plugin.action.list': {
    params: z.object(pluginFilter),
    result: z.object({ type: z.literal('plugin_action_list'), actions: z.array(pluginActionSchema) }),
    changesState: false,
  },
  'plugin.action.invoke': {
    params: z.object({
      action_id: z.string().max(4096).describe('the action\'s id, or `<plugin_id>.<action_id>`'),
      plugin_id: optional(pluginId),
      context: optional(pluginContextParams),
    }),
    result: z.object({ type: z.literal('plugin_action_invoked'), action: pluginActionSchema, context: pluginContextSchema, log: pluginCommandLogSchema }),
    changesState: false,
  },
  'plugin.log.list': {
    params: z.object({ ...pluginFilter, limit: optional(z.number().int().min(0).describe('the newest this many (1–200, default 50)')) }),
    result: z.object({ type: z.literal('plugin_log_list'), logs: z.array(pluginCommandLogSchema) }),
    changesState: false,
  },
  'plugin.pane.open': {
    params: z.object({
      plugin_id: pluginId,
      entrypoint: z.string().max(4096).describe('the `[[panes]] id`'),
      placement: optional(z.enum(PLUGIN_PANE_PLACEMENTS).describe('default: the manifest\'s, else overlay')),
      width: optional(popupSizeSchema),
      height: optional(popupSizeSchema),
      workspace_id: optional(z.string().describe('tab placement: the workspace (default the active one)')),
      target_pane_id: optional(z.string().describe('split and zoomed placements: the pane to split (default the focused one)')),
      direction: optional(z.enum(SPLIT_DIRECTIONS)),
      cwd: optional(path.describe('default: the plugin\'s directory')),
      focus: optional(z.boolean()),
      env: optional(environment),
    }),
    result: z.object({ type: z.literal('plugin_pane_opened'), plugin_pane: pluginPaneSchema }),
    changesState: true,
  },
  'plugin.pane.focus': {
    params: z.object({ pane_id: z.string() }),
    result: z.object({ type: z.literal('plugin_pane_focused'), plugin_pane: pluginPaneSchema }),
    changesState: true,
  },
  'plugin.pane.close': {
    params: z.object({ pane_id: z.string() }),
    result: z.object({ type: z.literal('plugin_pane_closed'), pane_id: z.string() }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
