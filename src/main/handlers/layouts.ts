/** layout.export, layout.apply and session.snapshot (docs/protocol.md §5). */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams } from '../../protocol/methods.js';
import { describeLayout } from '../layout-description.js';
import type { LayoutOperations } from '../operations/layouts.js';
import type { Registry, TabRecord } from '../registry.js';
import type { Router } from '../router.js';

const NEW_WORKSPACE_ONLY = 'layout.apply always builds a new workspace; replacing a tab\'s layout is not supported (make a new tab with tab.create, or apply a layout and close the old one)';

export function registerLayoutHandlers(router: Router, { registry, layouts }: { registry: Registry; layouts: LayoutOperations }): void {
  router.register('layout.export', (params) => ({ type: 'layout_export', layout: describeLayout(registry, exportTarget(registry, params)) }));

  router.register('layout.apply', async (params, { batch, afterResponse }) => {
    if (params.tab_id !== undefined) throw new ProtocolError('invalid_target', `tab_id: ${NEW_WORKSPACE_ONLY}`);
    if (params.workspace_id !== undefined) throw new ProtocolError('invalid_target', `workspace_id: ${NEW_WORKSPACE_ONLY}`);
    const request = { root: params.root, label: params.label ?? params.tab_label, focus: params.focus ?? false };
    const workspace = await layouts.apply(request, batch, afterResponse);
    return { type: 'layout_apply', layout: describeLayout(registry, workspace.activeTab) };
  });
}

/**
 * The tab a `layout.export` asks for: the one named, the one of the pane named, the
 * active tab of the workspace named, else the active workspace's active tab.
 */
function exportTarget(registry: Registry, params: MethodParams<'layout.export'>): TabRecord {
  const named = [params.tab_id, params.workspace_id, params.pane_id].filter((id) => id !== undefined).length;
  if (named > 1) throw new ProtocolError('invalid_target', 'name one of tab_id, workspace_id or pane_id');
  if (params.tab_id !== undefined) return registry.resolveTab(params.tab_id);
  if (params.workspace_id !== undefined) return registry.resolveWorkspace(params.workspace_id).activeTab;
  if (params.pane_id !== undefined) return registry.resolvePane(params.pane_id).tab;
  const active = registry.activeWorkspace;
  if (!active) throw new ProtocolError('workspace_not_found', 'there is no workspace to export');
  return active.activeTab;
}
