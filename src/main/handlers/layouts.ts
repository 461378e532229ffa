/** layout.export and layout.apply (docs/protocol.md §5.2). */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams } from '../../protocol/methods.js';
import { describeLayout } from '../layout-description.js';
import type { LayoutOperations } from '../operations/layouts.js';
import type { Registry, TabRecord } from '../registry.js';
import type { Router } from '../router.js';

export function registerLayoutHandlers(router: Router, { registry, layouts }: { registry: Registry; layouts: LayoutOperations }): void {
  router.register('layout.export', (params) => ({ type: 'layout_export', layout: describeLayout(registry, exportTarget(registry, params)) }));

  /**
   * herdr's forms: `tab_id` replaces that tab, `workspace_id` adds a tab to that workspace,
   * and neither adds one to the active workspace; a 0.2.0 client without either gets a new
   * workspace, as this server always gave it (docs/protocol.md §5.2).
   */
  router.register('layout.apply', async (params, { batch, afterResponse, dialect }) => {
    if (params.tab_id !== undefined && params.workspace_id !== undefined) throw new ProtocolError('invalid_target', 'name tab_id (a tab to replace) or workspace_id (a workspace to add a tab to), not both');
    const focus = params.focus ?? false;
    if (params.tab_id === undefined && params.workspace_id === undefined && dialect === '0.2.0') {
      const workspace = await layouts.apply({ root: params.root, label: params.label ?? params.tab_label, focus }, batch, afterResponse);
      return { type: 'layout_apply', layout: describeLayout(registry, workspace.activeTab) };
    }
    const replace = params.tab_id === undefined ? undefined : registry.resolveTab(params.tab_id);
    const workspace = replace?.workspace ?? (params.workspace_id === undefined ? registry.activeWorkspace : registry.resolveWorkspace(params.workspace_id));
    if (!workspace) throw new ProtocolError('workspace_not_found', 'no workspace is open: name workspace_id or tab_id, or create a workspace first');
    const tab = await layouts.applyToTab({ root: params.root, label: params.tab_label ?? params.label, focus }, { workspace, replace }, batch, afterResponse);
    return { type: 'layout_apply', layout: describeLayout(registry, tab) };
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
