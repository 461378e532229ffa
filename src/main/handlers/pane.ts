/** `pane.*` methods (docs/protocol.md §5; pane.resize: pane-resize.ts). Info comes from the registry's cache; text and input go to the shard. */
import { readWindow } from '../../protocol/read-window.js';
import { lookedAt } from '../agents/agent-status.js';
import type { PaneOperations } from '../operations/panes.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo } from '../wire-views.js';

export function registerPaneHandlers(router: Router, { registry, panes }: { registry: Registry; panes: PaneOperations }): void {
  router.register('pane.list', (params) => {
    const workspaces = params.workspace_id === undefined ? registry.workspaces : [registry.resolveWorkspace(params.workspace_id)];
    return {
      type: 'pane_list',
      panes: workspaces.flatMap((w) => registry.panesInLayoutOrder(w).map((p) => paneInfo(registry, p))),
    };
  });

  router.register('pane.get', (params) => ({ type: 'pane_info', pane: paneInfo(registry, registry.resolvePane(params.pane_id)) }));

  router.register('pane.read', async (params, { batch }) => {
    const pane = registry.resolvePane(params.pane_id);
    const read = await panes.read(pane, readWindow(params));
    lookedAt(pane, batch);
    return { type: 'pane_read', read };
  });

  router.register('pane.send_text', async (params) => {
    await panes.input(registry.resolvePane(params.pane_id), params.text, [], false);
    return { type: 'ok' };
  });

  router.register('pane.send_keys', async (params) => {
    await panes.input(registry.resolvePane(params.pane_id), '', params.keys, false);
    return { type: 'ok' };
  });

  router.register('pane.send_input', async (params) => {
    await panes.input(registry.resolvePane(params.pane_id), params.text, params.keys ?? ['Enter'], true);
    return { type: 'ok' };
  });

  router.register('pane.split', async (params, { batch }) => {
    // workspace_id only says whose focused pane, when no target is named.
    const workspace = params.target_pane_id === undefined && params.workspace_id !== undefined ? registry.resolveWorkspace(params.workspace_id) : undefined;
    const target = registry.resolvePaneOrFocused(params.target_pane_id, workspace);
    const { cwd, command, env, cols, rows, direction, label, ratio } = params;
    const pane = await panes.split(target, { cwd, command, env, cols, rows, direction, label, ratio, focus: params.focus ?? false }, batch);
    if (params.right_click === 'pane') pane.rightClick = 'pane';
    return { type: 'pane_info', pane: paneInfo(registry, pane) };
  });

  router.register('pane.close', (params, { batch }) => {
    panes.close(registry.resolvePane(params.pane_id), batch);
    return { type: 'ok' };
  });
}

