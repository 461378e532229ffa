/**
 * herdr's current pane methods that need no screen (docs/protocol.md §5.6): `pane.current`
 * (the caller's pane: named, else the one the connecting process runs in, else herdr's
 * focused pane), `pane.input.set` (where a person's right click goes) and
 * `pane.selection.read` (the text between two cells, read by the pane's shard).
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { PaneSelection } from '../../protocol/methods/pane-extras.js';
import { peerCredentialsAvailable } from '../../os/peer-process.js';
import { callerPane } from '../caller-pane.js';
import { currentPaneIds, paneIds, tabStableId, withCurrentView } from '../ids.js';
import type { PaneShards } from '../pane-shards.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo } from '../wire-views.js';

export function registerPaneExtraHandlers(router: Router, { registry, shards }: { registry: Registry; shards: PaneShards }): void {
  router.register('pane.current', async (params, { connection }) => {
    if (params.caller_pane_id !== undefined) {
      return { type: 'pane_current', pane: paneInfo(registry, registry.resolvePane(params.caller_pane_id)), found_by: 'caller_pane_id' };
    }
    const caller = await callerPane(connection, registry);
    if (caller) return { type: 'pane_current', pane: paneInfo(registry, caller), found_by: 'process' };
    if (params.caller_only) {
      const why = peerCredentialsAvailable()
        ? 'the calling process runs in no pane of this server (neither in a pane\'s process session nor carrying a pane\'s HERDR_PANE_INSTANCE)'
        : 'this server cannot tell which process called (its native/peer-cred addon did not build)';
      throw new ProtocolError('pane_not_found', `no current pane: ${why}; name it with caller_pane_id`);
    }
    const focused = registry.focusedPane;
    if (!focused) throw new ProtocolError('pane_not_found', 'no current pane: the caller runs in no pane and no pane is focused (no workspace is open)');
    return { type: 'pane_current', pane: paneInfo(registry, focused), found_by: 'focused' };
  });

  router.register('pane.input.set', (params) => {
    const pane = registry.resolvePane(params.pane_id);
    pane.rightClick = params.right_click === 'herdr' ? undefined : params.right_click;
    return { type: 'ok' };
  });

  router.register('pane.selection.read', async (params) => {
    const pane = registry.resolvePane(params.pane_id);
    const result = await shards
      .of(pane)
      .request('selection', { paneUid: pane.uid, start: params.start, end: params.end, block: params.mode === 'block' })
      .catch((error: unknown) => shards.refused(pane, error, 'pane_not_found'));
    pane.revision = Math.max(pane.revision, result.revision);
    const ids = paneIds(pane);
    const selection = withCurrentView<PaneSelection>(
      {
        pane_id: ids.pane_id,
        workspace_id: ids.workspace_id,
        stable_id: ids.stable_id,
        tab_id: tabStableId(pane.workspace.uid, pane.tab.uid),
        text: result.text,
        start: result.start,
        end: result.end,
        mode: params.mode ?? 'stream',
        revision: result.revision,
      },
      currentPaneIds(pane),
    );
    return { type: 'pane_selection', selection };
  });
}
