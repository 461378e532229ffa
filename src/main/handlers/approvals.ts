/**
 * The approval inbox (docs/protocol.md §13.6): `approvals.list` asks each blocked pane's shard
 * for the menu on its screen; `approvals.answer` has the shard check the question's hash and
 * type the option's keys in one step, so an answer never lands on a question it was not for.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { Approval } from '../../protocol/methods/approvals.js';
import type { MenuOnScreen } from '../../protocol/thread.js';
import { instanceOf, nameOf } from '../agents/occupants.js';
import { currentPaneIds, errorNaming, paneIds, withCurrentView } from '../ids.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneRecord, Registry } from '../registry.js';
import type { Router } from '../router.js';

function approval(pane: PaneRecord, onScreen: MenuOnScreen): Approval {
  const { menu } = onScreen;
  const selected = menu && menu.selected >= 0 ? menu.options[menu.selected]?.key : undefined;
  const question = menu?.question ?? pane.occupant.message;
  const instance = instanceOf(pane);
  const name = nameOf(pane);
  const ids = paneIds(pane);
  return withCurrentView<Approval>(
    {
      pane_id: ids.pane_id,
      workspace_id: ids.workspace_id,
      stable_id: ids.stable_id,
      ...(pane.occupant.agent === undefined ? {} : { agent: pane.occupant.agent }),
      ...(instance === undefined ? {} : { agent_instance_id: instance }),
      ...(name === undefined ? {} : { name }),
      ...(pane.cwd === undefined ? {} : { cwd: pane.cwd }),
      since: pane.occupant.stateSince,
      ...(question === undefined ? {} : { question }),
      menu: menu?.kind ?? 'none',
      options: menu?.options ?? [],
      ...(selected === undefined ? {} : { selected }),
      question_hash: onScreen.hash,
    },
    currentPaneIds(pane),
  );
}

interface Parts {
  registry: Registry;
  shards: PaneShards;
}

/** The blocked panes (of a workspace, of an agent kind) with their menus, the longest-waiting first. */
async function listApprovals({ registry, shards }: Parts, filter: { workspace_id?: string | undefined; agent?: string | undefined }): Promise<Array<{ pane: PaneRecord; approval: Approval }>> {
  const workspaces = filter.workspace_id === undefined ? registry.workspaces : [registry.resolveWorkspace(filter.workspace_id)];
  const blocked = workspaces
    .flatMap((workspace) => registry.panesInLayoutOrder(workspace))
    .filter((pane) => pane.occupant.state === 'blocked' && (filter.agent === undefined || pane.occupant.agent === filter.agent));
  const read = await Promise.all(
    blocked.map((pane) =>
      shards
        .of(pane)
        .request('menu', { paneUid: pane.uid })
        .then((onScreen) => ({ pane, approval: approval(pane, onScreen) }))
        // A pane that went meanwhile is left out.
        .catch(() => undefined),
    ),
  );
  return read.filter((entry) => entry !== undefined).sort((a, b) => a.approval.since - b.approval.since);
}

/**
 * A menu is answered once it has been up this long: a CLI may drop the keys that come right as
 * its dialog appears (claude ignored an Enter 20 ms after drawing its permission menu, and took
 * one 300 ms after; docs/agents.md), as a guard against a person's keystroke meant for before.
 */
export const MENU_SETTLE_MS = 300;

/** Types `option` into a blocked pane's menu if its question still has `questionHash` (the shard checks and types in one step). */
async function answer({ shards }: Parts, pane: PaneRecord, option: string, questionHash: string): Promise<{ keys: string[]; label: string }> {
  if (pane.occupant.state !== 'blocked') {
    const what = pane.occupant.agent === undefined ? 'hosts no agent' : `holds an agent that is ${pane.occupant.state}`;
    throw errorNaming('approval_not_blocked', (name) => `pane ${name(pane)} ${what}, so nothing there waits for an answer: nothing was typed`);
  }
  const settling = pane.occupant.stateSince + MENU_SETTLE_MS - Date.now();
  if (settling > 0) await new Promise((resolve) => setTimeout(resolve, settling));
  return shards
    .of(pane)
    .request('answerMenu', { paneUid: pane.uid, option, questionHash })
    .catch((error: unknown) => shards.refused(pane, error, 'pane_send_failed'));
}

export function registerApprovalHandlers(router: Router, parts: Parts): void {
  router.register('approvals.list', async (params) => ({
    type: 'approval_list',
    approvals: (await listApprovals(parts, params)).map((entry) => entry.approval),
  }));

  router.register('approvals.answer_matching', async (params) => {
    const question = params.question?.toLowerCase();
    const label = params.label?.toLowerCase();
    const matching = (await listApprovals(parts, params)).filter(({ approval: entry }) => question === undefined || (entry.question ?? '').toLowerCase().includes(question));
    const answered: Array<{ pane_id: string; stable_id: string; option: string; label: string; keys: string[] }> = [];
    const skipped: Array<{ pane_id: string; stable_id: string; code: string; message: string }> = [];
    for (const { pane, approval: entry } of matching) {
      const ids = { pane_id: entry.pane_id, stable_id: entry.stable_id };
      const option = params.option ?? entry.options.find((candidate) => label !== undefined && candidate.label.toLowerCase().startsWith(label))?.key;
      if (option === undefined) {
        skipped.push({ ...ids, code: 'approval_option_not_found', message: `no option labelled ${params.label} (options: ${entry.options.map((candidate) => candidate.label).join(', ') || 'none'})` });
        continue;
      }
      try {
        answered.push({ ...ids, option, ...(await answer(parts, pane, option, entry.question_hash)) });
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        skipped.push({ ...ids, code: error.code, message: error.message });
      }
    }
    return { type: 'approvals_answered', answered, skipped };
  });

  router.register('approvals.answer', async (params) => {
    const pane = parts.registry.resolvePane(params.pane_id);
    const answered = await answer(parts, pane, params.option, params.question_hash);
    return withCurrentView(
      { type: 'approval_answered' as const, pane_id: paneIds(pane).pane_id, option: params.option, label: answered.label, keys: answered.keys },
      { pane_id: paneIds(pane).stable_id },
    );
  });
}
