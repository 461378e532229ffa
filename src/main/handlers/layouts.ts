/** layout.export, layout.apply and session.snapshot (docs/protocol.md §5). */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams } from '../../protocol/methods.js';
import { describeLayout } from '../layout-description.js';
import type { LayoutOperations } from '../operations/layouts.js';
import type { Registry, WorkspaceRecord } from '../registry.js';
import type { Router } from '../router.js';

const NO_TABS = 'there are no tabs yet (a workspace holds one split tree)';

export function registerLayoutHandlers(router: Router, { registry, layouts }: { registry: Registry; layouts: LayoutOperations }): void {
  router.register('layout.export', (params) => ({ type: 'layout_export', layout: describeLayout(registry, exportTarget(registry, params)) }));

  router.register('layout.apply', async (params, { batch, afterResponse }) => {
    if (params.tab_id !== undefined) throw new ProtocolError('invalid_target', `tab_id: ${NO_TABS}; layout.apply builds a new workspace`);
    if (params.workspace_id !== undefined) {
      throw new ProtocolError('invalid_target', `workspace_id: layout.apply always builds a new workspace (${NO_TABS} to add to one)`);
    }
    const request = { root: params.root, label: params.label ?? params.tab_label, focus: params.focus ?? false };
    const workspace = await layouts.apply(request, batch, afterResponse);
    return { type: 'layout_apply', layout: describeLayout(registry, workspace) };
  });
}

/** The workspace a `layout.export` asks for: the one named, the one of the pane named, else the active one. */
function exportTarget(registry: Registry, params: MethodParams<'layout.export'>): WorkspaceRecord {
  if (params.tab_id !== undefined) throw new ProtocolError('invalid_target', `tab_id: ${NO_TABS}; name a workspace_id or pane_id`);
  if (params.workspace_id !== undefined && params.pane_id !== undefined) {
    throw new ProtocolError('invalid_target', 'name a workspace_id or a pane_id, not both');
  }
  if (params.workspace_id !== undefined) return registry.resolveWorkspace(params.workspace_id);
  if (params.pane_id !== undefined) return registry.resolvePane(params.pane_id).workspace;
  const active = registry.activeWorkspace;
  if (!active) throw new ProtocolError('workspace_not_found', 'there is no workspace to export');
  return active;
}
