/**
 * The approval inbox (docs/protocol.md §13.6): `approvals.list` asks each blocked pane's shard
 * for the menu on its screen; `approvals.answer` has the shard check the question's hash and
 * type the option's keys in one step, so an answer never lands on a question it was not for.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { Approval } from '../../protocol/methods/approvals.js';
import type { MenuOnScreen } from '../../protocol/thread.js';
import { instanceOf, nameOf } from '../agents/occupants.js';
import { currentPaneIds, paneIds, withCurrentView } from '../ids.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneRecord, Registry } from '../registry.js';
import type { Router } from '../router.js';

function approval(pane: PaneRecord, onScreen: MenuOnScreen): Approval {
  const { menu } = onScreen;
  const selected = menu && menu.selected >= 0 ? menu.options[menu.selected]?.key : undefined;
  const question = menu?.question ?? pane.agentMessage;
  const instance = instanceOf(pane);
  const name = nameOf(pane);
  const ids = paneIds(pane);
  return withCurrentView<Approval>(
    {
      pane_id: ids.pane_id,
      workspace_id: ids.workspace_id,
      stable_id: ids.stable_id,
      ...(pane.agent === undefined ? {} : { agent: pane.agent }),
      ...(instance === undefined ? {} : { agent_instance_id: instance }),
      ...(name === undefined ? {} : { name }),
      ...(pane.cwd === undefined ? {} : { cwd: pane.cwd }),
      since: pane.agentStateSince,
      ...(question === undefined ? {} : { question }),
      menu: menu?.kind ?? 'none',
      options: menu?.options ?? [],
      ...(selected === undefined ? {} : { selected }),
      question_hash: onScreen.hash,
    },
    currentPaneIds(pane),
  );
}

export function registerApprovalHandlers(router: Router, { registry, shards }: { registry: Registry; shards: PaneShards }): void {
  router.register('approvals.list', async (params) => {
    const workspaces = params.workspace_id === undefined ? registry.workspaces : [registry.resolveWorkspace(params.workspace_id)];
    const blocked = workspaces
      .flatMap((workspace) => registry.panesInLayoutOrder(workspace))
      .filter((pane) => pane.agentState === 'blocked' && (params.agent === undefined || pane.agent === params.agent));
    const read = await Promise.all(
      blocked.map((pane) =>
        shards
          .of(pane.workspace)
          .request('menu', { paneUid: pane.uid })
          .then((onScreen) => approval(pane, onScreen))
          // A pane that went meanwhile is left out.
          .catch(() => undefined),
      ),
    );
    const approvals = read.filter((entry): entry is Approval => entry !== undefined).sort((a, b) => a.since - b.since);
    return { type: 'approval_list', approvals };
  });

  router.register('approvals.answer', async (params) => {
    const pane = registry.resolvePane(params.pane_id);
    if (pane.agentState !== 'blocked') {
      throw new ProtocolError('approval_not_blocked', `pane ${paneIds(pane).pane_id} is ${pane.agentState}, not blocked: nothing was typed`);
    }
    const answered = await shards
      .of(pane.workspace)
      .request('answerMenu', { paneUid: pane.uid, option: params.option, questionHash: params.question_hash })
      .catch((error: unknown) => shards.refused(pane, error, 'pane_send_failed'));
    return withCurrentView(
      { type: 'approval_answered' as const, pane_id: paneIds(pane).pane_id, option: params.option, label: answered.label, keys: answered.keys },
      { pane_id: paneIds(pane).stable_id },
    );
  });
}
