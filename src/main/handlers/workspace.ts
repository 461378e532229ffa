/** `workspace.*` methods (docs/protocol.md §5), answered from the registry. */
import { ProtocolError } from '../../protocol/errors.js';
import type { WorkspaceOperations } from '../operations/workspaces.js';
import type { Registry, WorkspaceRecord } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';

export function registerWorkspaceHandlers(router: Router, { registry, workspaces }: { registry: Registry; workspaces: WorkspaceOperations }): void {
  const result = (workspace: WorkspaceRecord) => ({ type: 'workspace_info', workspace: workspaceInfo(registry, workspace) }) as const;

  router.register('workspace.list', () => ({
    type: 'workspace_list',
    workspaces: registry.workspaces.map((w) => workspaceInfo(registry, w)),
  }));

  router.register('workspace.get', (params) => result(registry.resolveWorkspace(params.workspace_id)));

  router.register('workspace.create', async (params, { batch, dialect }) => {
    const { cwd, command, env, cols, rows, label } = params;
    const workspace = await workspaces.create({ cwd, command, env, cols, rows, label, focus: params.focus ?? false }, batch);
    // docs/protocol.md §15.3: herdr 0.2.0 answered the workspace; the current protocol adds its tab and first pane.
    if (dialect === '0.2.0') return result(workspace);
    const root = registry.rootPane(workspace.activeTab);
    if (!root) throw new ProtocolError('workspace_create_failed', 'the workspace closed before it could be answered (its program exited at once)');
    return { type: 'workspace_created', workspace: workspaceInfo(registry, workspace), tab: tabInfo(registry, workspace.activeTab), root_pane: paneInfo(registry, root) };
  });

  router.register('workspace.focus', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    workspaces.focus(workspace, batch);
    return result(workspace);
  });

  router.register('workspace.rename', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    workspaces.rename(workspace, params.label, batch);
    return result(workspace);
  });

  router.register('workspace.close', (params, { batch }) => {
    workspaces.close(registry.resolveWorkspace(params.workspace_id), batch);
    return { type: 'ok' };
  });
}
