/** `pane.*` methods (docs/protocol.md §5, §5.1). Info comes from the registry's cache; text and input go to the shard. */
import { MAX_READ_LINES } from '../../protocol/methods.js';
import type { Router } from '../router.js';
import type { Session } from '../session.js';

const DEFAULT_READ_LINES = 80;

export function registerPaneHandlers(router: Router, session: Session): void {
  const { registry } = session;

  router.register('pane.list', (params) => {
    const workspaces =
      params.workspace_id === undefined ? registry.workspaces : [registry.resolveWorkspace(params.workspace_id)];
    return {
      type: 'pane_list',
      panes: workspaces.flatMap((w) => registry.panesInLayoutOrder(w).map((p) => registry.paneInfo(p))),
    };
  });

  router.register('pane.get', (params) => ({
    type: 'pane_info',
    pane: registry.paneInfo(registry.resolvePane(params.pane_id)),
  }));

  router.register('pane.read', async (params) => {
    const pane = registry.resolvePane(params.pane_id);
    const lines = Math.min(params.lines ?? DEFAULT_READ_LINES, MAX_READ_LINES);
    const read = await session.read(pane, params.source, lines, params.strip_ansi ?? true);
    return { type: 'pane_read', read };
  });

  router.register('pane.send_text', async (params) => {
    await session.input(registry.resolvePane(params.pane_id), params.text, [], false);
    return { type: 'ok' };
  });

  router.register('pane.send_keys', async (params) => {
    await session.input(registry.resolvePane(params.pane_id), '', params.keys, false);
    return { type: 'ok' };
  });

  router.register('pane.send_input', async (params) => {
    await session.input(registry.resolvePane(params.pane_id), params.text, params.keys ?? ['Enter'], true);
    return { type: 'ok' };
  });

  router.register('pane.split', async (params, { batch }) => {
    const target = registry.resolvePane(params.target_pane_id);
    const pane = await session.splitPane(
      target,
      {
        cwd: params.cwd,
        command: params.command,
        env: params.env,
        cols: params.cols,
        rows: params.rows,
        direction: params.direction,
        focus: params.focus ?? false,
      },
      batch,
    );
    return { type: 'pane_info', pane: registry.paneInfo(pane) };
  });

  router.register('pane.close', (params, { batch }) => {
    session.closePane(registry.resolvePane(params.pane_id), batch);
    return { type: 'ok' };
  });

  router.register('pane.resize', async (params) => {
    const pane = registry.resolvePane(params.pane_id);
    await session.resize(pane, params.cols, params.rows);
    return { type: 'pane_info', pane: registry.paneInfo(pane) };
  });
}
