/**
 * herdr's plugin host (docs/protocol.md §16): what the `plugin.*` methods do. Plugins are
 * linked from a directory with a `herdr-plugin.toml` (manifest.ts), kept in plugins.json
 * (plugin-store.ts); actions, startup hooks and event hooks run as argv with herdr's plugin
 * environment (plugin-commands.ts); a plugin's pane is a real pane of the server, split
 * off or in a tab of its own, labelled with the pane's title, that remembers which plugin
 * and entrypoint it came from. Linking or enabling runs nothing.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { SplitDirection } from '../../protocol/enums.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { InstalledPlugin, ManifestPane, PluginAction, PluginCommandLog, PluginContext, PluginPanePlacement } from '../../protocol/plugins.js';
import { agentStatus, lookedAt } from '../agents/agent-status.js';
import { herdrEnvelope } from '../../protocol/event-wait.js';
import type { EventBatch, EventHub, LoggedEvent } from '../event-hub.js';
import { withFocusEvents } from '../focus-events.js';
import { paneStableId, tabStableId, workspaceStableId } from '../ids.js';
import type { PaneOperations } from '../operations/panes.js';
import type { NavigationOperations } from '../operations/navigation.js';
import type { TabOperations } from '../operations/tabs.js';
import type { PaneRecord, Registry, WorkspaceRecord } from '../registry.js';
import { HERDR_BIN_PATH } from '../spawn-spec.js';
import { wireJson } from '../wire-json.js';
import { tabInfo, workspaceInfo } from '../wire-views.js';
import { HOOK_EVENT_NAMES, hostPlatform, loadManifest, normalLocalId, normalPluginId, runsHere } from './manifest.js';
import { PluginCommands } from './plugin-commands.js';
import { type PluginPlaces, PluginStore, isAvailable } from './plugin-store.js';

export interface PluginHostParts {
  registry: Registry;
  /** Where `[[events]]` hooks hear the server's events. */
  events: EventHub;
  panes: PaneOperations;
  tabs: TabOperations;
  /** A `zoomed` placement zooms the split it opens. */
  navigation: NavigationOperations;
  /** The server's sockets: a plugin speaks herdr's current protocol, so it is given the current one when there is one. */
  socketPath: string;
  currentSocketPath: string | undefined;
  places: PluginPlaces;
}

/** Variables a client's `env` for a plugin pane may not set: the host's own. */
const PROTECTED_ENV = new Set([
  'HERDR_SOCKET_PATH', 'HERDR_ENV', 'HERDR_PLUGIN_ID', 'HERDR_PLUGIN_ROOT', 'HERDR_PLUGIN_CONFIG_DIR',
  'HERDR_PLUGIN_STATE_DIR', 'HERDR_PLUGIN_ENTRYPOINT_ID', 'HERDR_PLUGIN_CONTEXT_JSON', 'HERDR_BIN_PATH',
]);

interface PluginPaneRecord {
  pluginId: string;
  entrypoint: string;
  /** An overlay gives the focus back to the pane it was opened over when it is closed. */
  returnFocusTo: number | undefined;
}

export interface PaneOpenRequest {
  plugin_id: string;
  entrypoint: string;
  placement?: PluginPanePlacement | undefined;
  width?: number | string | undefined;
  height?: number | string | undefined;
  workspace_id?: string | undefined;
  target_pane_id?: string | undefined;
  direction?: SplitDirection | undefined;
  cwd?: string | undefined;
  focus?: boolean | undefined;
  env?: Record<string, string> | undefined;
}

export class PluginHost {
  readonly store: PluginStore;
  readonly commands = new PluginCommands();
  /** The panes plugins opened, by pane uid (kept across moves, dropped when the pane or the plugin goes). */
  private readonly pluginPanes = new Map<number, PluginPaneRecord>();
  private invocations = 0;
  /** The hook event names some plugin declared when the list was last read: other events cost nothing. */
  private hooked = new Set<string>();

  constructor(private readonly parts: PluginHostParts) {
    this.store = new PluginStore(parts.places, (plugins) => this.noteHooks(plugins));
    parts.events.listen((event) => this.heard(event));
  }

  // ── the list ──

  async link(path: string, enabled: boolean, source: { kind?: 'local' | 'github' | undefined } | undefined): Promise<InstalledPlugin> {
    const plugin = await loadManifest(resolve(path), enabled);
    if (source?.kind === 'github') {
      throw new ProtocolError('invalid_plugin_source', 'this server installs no GitHub plugins: link a local checkout (source kind "local")');
    }
    if (source) plugin.source = { ...source, kind: 'local' };
    await this.store.ensureDirs(plugin.plugin_id);
    const { plugins } = await this.store.update((byId) => byId.set(plugin.plugin_id, { ...plugin, warnings: undefined }));
    return plugins.find((p) => p.plugin_id === plugin.plugin_id) ?? plugin;
  }

  async list(pluginId: string | undefined): Promise<InstalledPlugin[]> {
    const id = pluginId === undefined ? undefined : checkedPluginId(pluginId);
    return (await this.store.list()).filter((plugin) => id === undefined || plugin.plugin_id === id);
  }

  async unlink(pluginId: string): Promise<{ plugin_id: string; removed: boolean }> {
    const id = checkedPluginId(pluginId);
    const { result: removed } = await this.store.update((byId) => byId.delete(id));
    // Its panes keep running as ordinary panes.
    if (removed) for (const [uid, record] of this.pluginPanes) if (record.pluginId === id) this.pluginPanes.delete(uid);
    return { plugin_id: id, removed };
  }

  async setEnabled(pluginId: string, enabled: boolean): Promise<InstalledPlugin> {
    const id = checkedPluginId(pluginId);
    const { result: found, plugins } = await this.store.update((byId) => {
      const plugin = byId.get(id);
      if (plugin) plugin.enabled = enabled;
      return plugin !== undefined;
    });
    const plugin = plugins.find((p) => p.plugin_id === id);
    if (!found || !plugin) throw new ProtocolError('plugin_not_found', `no plugin ${id} is linked`);
    return plugin;
  }

  // ── actions ──

  async actions(pluginId: string | undefined): Promise<PluginAction[]> {
    const id = pluginId === undefined ? undefined : checkedPluginId(pluginId);
    return actionsOf((await this.store.list()).filter((plugin) => id === undefined || plugin.plugin_id === id));
  }

  async invoke(actionId: string, pluginId: string | undefined, given: Partial<PluginContext> | undefined): Promise<{ action: PluginAction; context: PluginContext; log: PluginCommandLog }> {
    const plugins = await this.store.list();
    const { plugin, action } = findAction(plugins, actionId, pluginId);
    if (!plugin.enabled) throw new ProtocolError('plugin_disabled', `plugin ${plugin.plugin_id} is disabled`);
    if (!runsHere(action, {})) {
      throw new ProtocolError('platform_unsupported', `action ${plugin.plugin_id}.${action.action_id} does not support this platform (${hostPlatform()})`);
    }
    const context = { ...this.currentContext(), ...definedFields(given ?? {}) };
    await this.store.ensureDirs(plugin.plugin_id);
    const log = this.commands.start({ plugin, command: action.command, actionId: action.action_id, context, env: this.pluginEnv(plugin) });
    return { action, context, log };
  }

  logs(pluginId: string | undefined, limit: number | undefined): PluginCommandLog[] {
    const id = pluginId === undefined ? undefined : checkedPluginId(pluginId);
    return this.commands.list(id, Math.min(200, Math.max(1, limit ?? 50)));
  }

  /** `[[startup]]` of every enabled plugin, once the server is restored and listening; a failure is only logged. */
  async runStartupHooks(): Promise<void> {
    const plugins = await this.store.list().catch(() => []);
    const context = { ...this.currentContext(), invocation_source: 'startup', correlation_id: 'plugin.startup' };
    for (const plugin of plugins) {
      if (!plugin.enabled || !isAvailable(plugin)) continue;
      for (const startup of plugin.startup ?? []) {
        if (!runsHere(startup, plugin)) continue;
        try {
          await this.store.ensureDirs(plugin.plugin_id);
          this.commands.start({ plugin, command: startup.command, event: 'startup', context, env: this.pluginEnv(plugin) });
        } catch {
          // Kept in the plugin's log (over the limit) or nothing to run: the server goes on.
        }
      }
    }
  }

  /** `[[events]]` hooks: an event herdr hooks on (by its dotted name) runs the commands of every enabled plugin that declared it. */
  private heard(event: LoggedEvent): void {
    const name = hookName(event.line.event);
    if (name === undefined || !this.hooked.has(name)) return;
    void this.runHooks(name, event).catch(() => undefined);
  }

  private async runHooks(name: string, event: LoggedEvent): Promise<void> {
    // Read again, as at every request: a hook edited or a plugin disabled a moment ago counts.
    const plugins = await this.store.list();
    const { seq: _seq, ...envelope } = herdrEnvelope(event.line);
    const eventJson = wireJson(envelope, 'current');
    const context = { ...this.eventContext(event), correlation_id: name };
    for (const plugin of plugins) {
      if (!plugin.enabled || !isAvailable(plugin)) continue;
      for (const hook of plugin.events ?? []) {
        if (hook.on !== name || !runsHere(hook, plugin)) continue;
        try {
          await this.store.ensureDirs(plugin.plugin_id);
          this.commands.start({ plugin, command: hook.command, event: name, eventJson, context, env: this.pluginEnv(plugin) });
        } catch {
          // Over the limit (logged) or no directories: the event goes on without this hook.
        }
      }
    }
  }

  private noteHooks(plugins: readonly InstalledPlugin[]): void {
    this.hooked = new Set(plugins.filter((p) => p.enabled).flatMap((p) => (p.events ?? []).map((hook) => hook.on)));
  }

  /** The context of the workspace (and pane) the event is about, else the active one. */
  private eventContext(event: LoggedEvent): PluginContext {
    const { registry } = this.parts;
    const pane = event.meta.paneUid === undefined ? undefined : registry.paneByUid(event.meta.paneUid);
    if (pane) return this.contextOf(pane.workspace, pane);
    const workspace = registry.workspaces.find((w) => workspaceStableId(w.uid) === event.meta.workspaceStableId);
    if (workspace) return this.contextOf(workspace, undefined);
    const base = definedFields({ workspace_id: event.meta.workspaceStableId, focused_pane_id: event.meta.paneStableId });
    return { ...this.contextOf(undefined, undefined), ...base };
  }

  // ── panes ──

  async openPane(request: PaneOpenRequest, batch: EventBatch): Promise<{ pluginId: string; entrypoint: string; pane: PaneRecord }> {
    this.prune();
    const id = checkedPluginId(request.plugin_id);
    const plugin = (await this.store.list()).find((p) => p.plugin_id === id);
    if (!plugin) throw new ProtocolError('plugin_not_found', `no plugin ${id} is linked`);
    if (!isAvailable(plugin)) throw new ProtocolError('plugin_manifest_unavailable', `the manifest of plugin ${id} cannot be read now: ${plugin.warnings?.join('; ')}`);
    if (!plugin.enabled) throw new ProtocolError('plugin_disabled', `plugin ${id} is disabled`);
    const entrypoint = normalLocalId(request.entrypoint);
    if (entrypoint === undefined) throw new ProtocolError('invalid_plugin_entrypoint', `invalid pane entrypoint id ${JSON.stringify(request.entrypoint.slice(0, 100))}`);
    const manifestPane = plugin.panes?.find((pane) => pane.id === entrypoint);
    if (!manifestPane) throw new ProtocolError('plugin_pane_not_found', `plugin ${id} declares no pane ${entrypoint}`);
    if (!runsHere(manifestPane, plugin)) throw new ProtocolError('platform_unsupported', `pane ${id}.${entrypoint} does not support this platform (${hostPlatform()})`);
    const placement = request.placement ?? manifestPane.placement;
    checkPlacement(placement, request);
    const { registry } = this.parts;
    let pane: PaneRecord;
    let returnFocusTo: number | undefined;
    if (placement === 'tab') {
      const workspace = request.workspace_id === undefined ? registry.activeWorkspace : registry.resolveWorkspace(request.workspace_id);
      if (!workspace) throw new ProtocolError('no_active_workspace', 'no workspace is open: create one, or name workspace_id');
      const spawn = this.paneSpawn(plugin, manifestPane, request, this.contextOf(workspace, undefined));
      const tab = await this.parts.tabs.create(workspace, { ...spawn, focus: request.focus ?? false, label: manifestPane.title }, batch);
      const root = registry.rootPane(tab);
      if (!root) throw new ProtocolError('plugin_pane_open_failed', 'the plugin\'s pane closed before it could be answered');
      pane = root;
    } else {
      const target = request.target_pane_id === undefined ? registry.focusedPane : registry.resolvePane(request.target_pane_id);
      if (!target) throw new ProtocolError('no_active_pane', 'no pane is focused: create a workspace, or name target_pane_id');
      // A headless server has no layer above the tiles: an overlay is a split that takes the focus and gives it back when it closes.
      const overlay = placement === 'overlay';
      if (overlay) returnFocusTo = target.uid;
      const spawn = this.paneSpawn(plugin, manifestPane, request, this.contextOf(target.workspace, target));
      pane = await this.parts.panes.split(
        target,
        { ...spawn, direction: request.direction ?? 'right', focus: overlay || placement === 'zoomed' || (request.focus ?? false), label: manifestPane.title },
        batch,
      );
      if (placement === 'zoomed') this.parts.navigation.zoom(pane, 'on', batch);
    }
    this.pluginPanes.set(pane.uid, { pluginId: id, entrypoint, returnFocusTo });
    return { pluginId: id, entrypoint, pane };
  }

  /** A plugin's pane by the id a client gives (compact or stable); `plugin_pane_not_found` for any other. */
  pluginPane(paneId: string): { pane: PaneRecord; pluginId: string; entrypoint: string } {
    let pane: PaneRecord;
    try {
      pane = this.parts.registry.resolvePane(paneId);
    } catch (error) {
      if (error instanceof ProtocolError && error.code === 'pane_not_found') throw new ProtocolError('plugin_pane_not_found', `no plugin pane ${paneId}`);
      throw error;
    }
    const record = this.pluginPanes.get(pane.uid);
    if (!record) throw new ProtocolError('plugin_pane_not_found', `pane ${paneId} is not a plugin's pane`);
    return { pane, pluginId: record.pluginId, entrypoint: record.entrypoint };
  }

  focusPane(paneId: string, batch: EventBatch): { pane: PaneRecord; pluginId: string; entrypoint: string } {
    const found = this.pluginPane(paneId);
    withFocusEvents(this.parts.registry, batch, () => this.parts.registry.focusPane(found.pane));
    lookedAt(found.pane, batch);
    return found;
  }

  closePane(paneId: string, batch: EventBatch): void {
    const { pane } = this.pluginPane(paneId);
    const back = this.pluginPanes.get(pane.uid)?.returnFocusTo;
    this.pluginPanes.delete(pane.uid);
    const { registry } = this.parts;
    const wasFocused = registry.isFocused(pane);
    this.parts.panes.close(pane, batch);
    const previous = back === undefined ? undefined : registry.paneByUid(back);
    if (wasFocused && previous) withFocusEvents(registry, batch, () => registry.focusPane(previous));
  }

  /** Forgets panes that are gone (a pane's uid is never reused, so this is only tidiness). */
  prune(): void {
    for (const uid of this.pluginPanes.keys()) if (!this.parts.registry.paneByUid(uid)) this.pluginPanes.delete(uid);
  }

  // ── what commands are given ──

  /** herdr's plugin variables, less what depends on the invocation. */
  private pluginEnv(plugin: InstalledPlugin): Record<string, string> {
    const { socketPath, currentSocketPath } = this.parts;
    return {
      HERDR_SOCKET_PATH: currentSocketPath ?? socketPath,
      ...(currentSocketPath === undefined ? {} : { HERDR_CURRENT_SOCKET_PATH: currentSocketPath }),
      HERDR_BIN_PATH,
      HERDR_ENV: '1',
      HERDR_PLUGIN_ID: plugin.plugin_id,
      HERDR_PLUGIN_ROOT: plugin.plugin_root,
      HERDR_PLUGIN_CONFIG_DIR: this.store.configDir(plugin.plugin_id),
      HERDR_PLUGIN_STATE_DIR: this.store.stateDir(plugin.plugin_id),
    };
  }

  /** What a plugin pane starts with: its argv (a relative program path is the plugin's file), directory and environment. */
  private paneSpawn(plugin: InstalledPlugin, manifestPane: ManifestPane, request: PaneOpenRequest, context: PluginContext) {
    const cwd = request.cwd === undefined ? plugin.plugin_root : resolve(request.cwd);
    const [program = '', ...args] = manifestPane.command;
    const command = [program.includes('/') && !isAbsolute(program) ? join(plugin.plugin_root, program) : program, ...args];
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.env ?? {})) if (!PROTECTED_ENV.has(name)) env[name] = value;
    Object.assign(env, { PWD: cwd }, this.pluginEnv(plugin), {
      HERDR_PLUGIN_ENTRYPOINT_ID: manifestPane.id,
      HERDR_PLUGIN_CONTEXT_JSON: JSON.stringify(context),
    });
    return { cwd, command, env, cols: undefined, rows: undefined, herdrSocket: 'current' as const };
  }

  private currentContext(): PluginContext {
    const workspace = this.parts.registry.activeWorkspace;
    return this.contextOf(workspace, undefined);
  }

  /** herdr's invocation context for a workspace (its focused pane unless `pane` is given), in stable ids. */
  private contextOf(workspace: WorkspaceRecord | undefined, pane: PaneRecord | undefined): PluginContext {
    const base = { invocation_source: 'api', correlation_id: `plugin-invoke-${++this.invocations}` };
    if (!workspace) return base;
    const { registry } = this.parts;
    const focused = pane ?? registry.focusedPaneOf(workspace);
    const tab = focused?.tab ?? workspace.activeTab;
    return definedFields({
      workspace_id: workspaceStableId(workspace.uid),
      workspace_label: workspaceInfo(registry, workspace).label,
      workspace_cwd: focused?.cwd ?? process.cwd(),
      worktree: workspace.worktree,
      tab_id: tabStableId(workspace.uid, tab.uid),
      tab_label: tabInfo(registry, tab).label,
      focused_pane_id: focused ? paneStableId(focused.workspace.uid, focused.stableNumber) : undefined,
      focused_pane_cwd: focused?.cwd,
      focused_pane_agent: focused?.occupant.agent,
      focused_pane_status: focused ? agentStatus(focused) : undefined,
      ...base,
    });
  }
}

/**
 * herdr's dotted name of an event line (`workspace_created` → `workspace.created`,
 * `pane.agent_status_changed` as it is), when herdr lets a hook run on it.
 */
function hookName(event: string): string | undefined {
  const snake = event.replace('.', '_');
  const dotted = snake.replace('_', '.');
  return HOOK_EVENT_NAMES.includes(dotted) ? dotted : undefined;
}

/** herdr's id rule for a plugin id a request names. */
function checkedPluginId(value: string): string {
  const id = normalPluginId(value);
  if (id === undefined) {
    throw new ProtocolError('invalid_plugin_id', 'a plugin id is 1–120 ASCII letters, digits, colons, dots, underscores or hyphens');
  }
  return id;
}

function definedFields<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The actions of plugins whose manifest can be read, each with the platforms that apply to it, by qualified id. */
function actionsOf(plugins: readonly InstalledPlugin[]): PluginAction[] {
  const actions = plugins.filter(isAvailable).flatMap((plugin) =>
    (plugin.actions ?? []).map((action) =>
      definedFields({
        plugin_id: plugin.plugin_id,
        action_id: action.id,
        title: action.title,
        description: action.description,
        contexts: action.contexts,
        command: action.command,
        platforms: action.platforms ?? plugin.platforms,
      }),
    ),
  );
  const qualified = (action: PluginAction) => `${action.plugin_id}.${action.action_id}`;
  return actions.sort((a, b) => (qualified(a) < qualified(b) ? -1 : qualified(a) > qualified(b) ? 1 : 0));
}

/** The action a request names: by plugin and id, or by id (or `<plugin>.<id>`) when that is unambiguous. */
function findAction(plugins: readonly InstalledPlugin[], actionId: string, pluginId: string | undefined): { plugin: InstalledPlugin; action: PluginAction } {
  if (pluginId !== undefined) {
    const id = checkedPluginId(pluginId);
    const local = normalLocalId(actionId);
    if (local === undefined) throw new ProtocolError('invalid_plugin_action_id', `invalid action id ${JSON.stringify(actionId.slice(0, 100))}`);
    const plugin = plugins.find((p) => p.plugin_id === id);
    if (!plugin) throw new ProtocolError('plugin_not_found', `no plugin ${id} is linked`);
    if (!isAvailable(plugin)) throw new ProtocolError('plugin_manifest_unavailable', `the manifest of plugin ${id} cannot be read now: ${plugin.warnings?.join('; ')}`);
    const action = actionsOf([plugin]).find((a) => a.action_id === local);
    if (!action) throw new ProtocolError('plugin_action_not_found', `plugin ${id} declares no action ${local}`);
    return { plugin, action };
  }
  const wanted = actionId.trim();
  const matches = actionsOf(plugins).filter((a) => a.action_id === wanted || `${a.plugin_id}.${a.action_id}` === wanted);
  const [only] = matches;
  if (!only) throw new ProtocolError('plugin_action_not_found', `no linked plugin declares an action ${JSON.stringify(wanted.slice(0, 100))}`);
  if (matches.length > 1) {
    throw new ProtocolError('ambiguous_plugin_action', `action ${wanted} is declared by ${matches.map((a) => a.plugin_id).join(', ')}: name plugin_id`);
  }
  const plugin = plugins.find((p) => p.plugin_id === only.plugin_id);
  if (!plugin) throw new ProtocolError('plugin_not_found', `no plugin ${only.plugin_id} is linked`);
  return { plugin, action: only };
}

/** herdr's rules for which params go with which placement; a popup needs a screen this server does not draw. */
function checkPlacement(placement: PluginPanePlacement, request: PaneOpenRequest): void {
  if (placement !== 'popup' && (request.width !== undefined || request.height !== undefined)) {
    throw new ProtocolError('invalid_request', 'width and height are for placement "popup" only');
  }
  if (placement === 'popup') {
    throw new ProtocolError('unsupported', 'a popup is drawn over the screen of an attached herdr client, and this headless server draws no screen: open the pane with placement "split", "tab", "zoomed" or "overlay"');
  }
  if (placement === 'overlay' && (request.workspace_id !== undefined || request.target_pane_id !== undefined || request.direction !== undefined)) {
    throw new ProtocolError('invalid_request', 'an overlay pane opens over the focused pane: no workspace_id, target_pane_id or direction');
  }
  if ((placement === 'split' || placement === 'zoomed') && request.workspace_id !== undefined) {
    throw new ProtocolError('invalid_request', 'split and zoomed panes split an existing pane: name it with target_pane_id, not workspace_id');
  }
  if (placement === 'tab' && (request.target_pane_id !== undefined || request.direction !== undefined)) {
    throw new ProtocolError('invalid_request', 'a tab pane takes workspace_id, not target_pane_id or direction');
  }
}
