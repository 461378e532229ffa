/** `workspace.*` methods (docs/protocol.md §5), answered from the registry. */
import type { Router } from '../router.js';
import type { Session } from '../session.js';

export function registerWorkspaceHandlers(router: Router, session: Session): void {
  const { registry } = session;
  const result = (workspace: Parameters<typeof registry.workspaceInfo>[0]) =>
    ({ type: 'workspace_info', workspace: registry.workspaceInfo(workspace) }) as const;

  router.register('workspace.list', () => ({
    type: 'workspace_list',
    workspaces: registry.workspaces.map((w) => registry.workspaceInfo(w)),
  }));

  router.register('workspace.get', (params) => result(registry.resolveWorkspace(params.workspace_id)));

  router.register('workspace.create', async (params, { batch }) => {
    const workspace = await session.createWorkspace(
      {
        cwd: params.cwd,
        command: params.command,
        env: params.env,
        cols: params.cols,
        rows: params.rows,
        focus: params.focus ?? false,
        label: params.label,
      },
      batch,
    );
    return result(workspace);
  });

  router.register('workspace.focus', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    session.focusWorkspace(workspace, batch);
    return result(workspace);
  });

  router.register('workspace.rename', (params) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    registry.rename(workspace, params.label);
    return result(workspace);
  });

  router.register('workspace.close', (params, { batch }) => {
    session.closeWorkspace(registry.resolveWorkspace(params.workspace_id), batch);
    return { type: 'ok' };
  });
}
