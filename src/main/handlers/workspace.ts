/** `workspace.*` methods (docs/protocol.md §5), answered from the registry. */
import type { WorkspaceOperations } from '../operations/workspaces.js';
import type { Registry, WorkspaceRecord } from '../registry.js';
import type { Router } from '../router.js';
import { workspaceInfo } from '../wire-views.js';

export function registerWorkspaceHandlers(router: Router, { registry, workspaces }: { registry: Registry; workspaces: WorkspaceOperations }): void {
  const result = (workspace: WorkspaceRecord) => ({ type: 'workspace_info', workspace: workspaceInfo(registry, workspace) }) as const;

  router.register('workspace.list', () => ({
    type: 'workspace_list',
    workspaces: registry.workspaces.map((w) => workspaceInfo(registry, w)),
  }));

  router.register('workspace.get', (params) => result(registry.resolveWorkspace(params.workspace_id)));

  router.register('workspace.create', async (params, { batch }) => {
    const { cwd, command, env, cols, rows, label } = params;
    return result(await workspaces.create({ cwd, command, env, cols, rows, label, focus: params.focus ?? false }, batch));
  });

  router.register('workspace.focus', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    workspaces.focus(workspace, batch);
    return result(workspace);
  });

  router.register('workspace.rename', (params) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    workspaces.rename(workspace, params.label);
    return result(workspace);
  });

  router.register('workspace.close', (params, { batch }) => {
    workspaces.close(registry.resolveWorkspace(params.workspace_id), batch);
    return { type: 'ok' };
  });
}
