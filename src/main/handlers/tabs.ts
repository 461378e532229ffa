/** `tab.*` methods (docs/protocol.md §5.3). */
import { ProtocolError } from '../../protocol/errors.js';
import type { TabOperations } from '../operations/tabs.js';
import type { Registry, TabRecord, WorkspaceRecord } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo, tabInfo } from '../wire-views.js';

export function registerTabHandlers(router: Router, { registry, tabs }: { registry: Registry; tabs: TabOperations }): void {
  const result = (tab: TabRecord) => ({ type: 'tab_info', tab: tabInfo(registry, tab) }) as const;

  /** The workspace named, else the active one (herdr's rule for tab.create). */
  const workspaceOf = (id: string | undefined): WorkspaceRecord => {
    if (id !== undefined) return registry.resolveWorkspace(id);
    const active = registry.activeWorkspace;
    if (!active) throw new ProtocolError('workspace_not_found', 'no workspace is open: create one, or name workspace_id');
    return active;
  };

  router.register('tab.create', async (params, { batch }) => {
    const { cwd, command, env, cols, rows, label } = params;
    const tab = await tabs.create(workspaceOf(params.workspace_id), { cwd, command, env, cols, rows, label, focus: params.focus ?? false }, batch);
    const root = registry.rootPane(tab);
    if (!root) throw new ProtocolError('tab_not_found', 'the new tab closed before it could be answered');
    return { type: 'tab_created', tab: tabInfo(registry, tab), root_pane: paneInfo(registry, root) };
  });

  router.register('tab.list', (params) => {
    const workspaces = params.workspace_id === undefined ? registry.workspaces : [registry.resolveWorkspace(params.workspace_id)];
    return { type: 'tab_list', tabs: workspaces.flatMap((workspace) => workspace.tabs.map((tab) => tabInfo(registry, tab))) };
  });

  router.register('tab.get', (params) => result(registry.resolveTab(params.tab_id)));

  router.register('tab.focus', (params, { batch }) => {
    const tab = registry.resolveTab(params.tab_id);
    tabs.focus(tab, batch);
    return result(tab);
  });

  router.register('tab.rename', (params, { batch }) => {
    const tab = registry.resolveTab(params.tab_id);
    tabs.rename(tab, params.label, batch);
    return result(tab);
  });

  router.register('tab.close', (params, { batch }) => {
    tabs.close(registry.resolveTab(params.tab_id), batch);
    return { type: 'ok' };
  });
}
