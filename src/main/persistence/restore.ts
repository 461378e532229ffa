/**
 * Brings back a saved session (docs/persistence.md): each workspace on a
 * shard as a new one would be, its panes with their stable uids, commands
 * (or resume commands), directories, sizes and old rows, its layout, label
 * and focus. A pane that cannot start is left out (and its leaf with it).
 */
import { paneStableId } from '../ids.js';
import type { PaneSpawner } from '../operations/pane-spawner.js';
import type { PaneShards } from '../pane-shards.js';
import { FIRST_TAB_UID, type PaneFacts, type PaneRecord, type Registry } from '../registry.js';
import { layoutOrder } from '../layout.js';
import { paneEnvironment } from '../spawn-spec.js';
import { type RestorePlan, keptTabs, restorePlan } from './restore-plan.js';
import type { SavedPane, SavedSession, SavedWorkspace } from './session-file.js';
import { DEFAULT_AGENT_START_TIMEOUT_MS } from '../../protocol/methods/agents.js';
import type { TurnBook } from '../agents/turns.js';

export interface RestoreCounts {
  workspaces: number;
  panes: number;
}

export async function restoreSession(
  parts: { registry: Registry; shards: PaneShards; spawner: PaneSpawner; turns: TurnBook },
  saved: SavedSession,
  options: { resumeAgents: boolean },
): Promise<RestoreCounts> {
  const { registry, shards, spawner, turns } = parts;
  registry.advanceUids(saved.nextWorkspaceUid, saved.nextPaneUid);
  turns.continueIdsFrom(saved.nextTurnId ?? 1);
  const context = { shell: spawner.shell, home: process.env.HOME ?? '/', resumeAgents: options.resumeAgents, savedAt: saved.savedAt };
  let panes = 0;
  for (const workspace of saved.workspaces) {
    const shard = shards.pick();
    if (!shard) break;
    const started: Array<{ uid: number; stableNumber: number; facts: PaneFacts; plan: RestorePlan }> = [];
    for (const pane of workspace.panes) {
      // A file from before per-workspace numbers named the pane by its uid: it keeps that id.
      const stableNumber = pane.stableNumber ?? pane.uid;
      const plan = restorePlan(pane, context);
      const size = { cols: pane.cols, rows: pane.rows };
      try {
        const result = await shard.spawn({
          paneUid: pane.uid,
          workspaceUid: workspace.uid,
          argv: plan.argv,
          cwd: plan.cwd,
          env: paneEnvironment(pane.env, spawner.envIds(workspace.uid, savedTabOf(workspace, pane.uid), stableNumber)),
          ...size,
          restore: { history: pane.history ?? { blocks: [], firstRow: 0 }, screen: pane.screen ?? new Uint8Array(), marker: plan.marker },
        });
        started.push({ uid: pane.uid, stableNumber, facts: { ...result, ...size, launch: { command: plan.command, env: pane.env } }, plan });
      } catch (error) {
        console.error(`herdr: pane ${paneStableId(workspace.uid, stableNumber)} could not be restored: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (started.length === 0) continue;
    const { tabs, activeTabUid, tabOfPane } = keptTabs(workspace, new Set(started.map((pane) => pane.uid)));
    const record = registry.restoreWorkspace(
      { uid: workspace.uid, shardId: shard.id, label: workspace.label, tabs, activeTabUid, worktree: workspace.worktree, nextPaneNumber: workspace.nextPaneNumber },
      started.map(({ uid, stableNumber, facts }) => ({ key: { uid, stableNumber }, tabUid: tabOfPane.get(uid) ?? activeTabUid, facts })),
    );
    for (const { uid, plan } of started) {
      const restored = registry.paneByUid(uid);
      const savedPane = workspace.panes.find((pane) => pane.uid === uid);
      if (!restored || !savedPane) continue;
      restored.restored = true;
      restored.label = savedPane.label;
      restored.occupant.previousSession = plan.previousAgentSession;
      awaitOccupant(restored, savedPane, plan, turns);
      panes++;
    }
    if (workspace.uid === saved.activeWorkspaceUid) registry.focusWorkspace(record);
  }
  return { workspaces: registry.workspaces.length, panes };
}

/**
 * An agent that comes back in its pane (its command runs again, or its session is resumed)
 * takes its old instance id and name, and its queued prompts wait for it; one that does not
 * (the pane is a shell now, or nothing shows up within the start timeout) fails them `exited`.
 */
function awaitOccupant(pane: PaneRecord, saved: SavedPane, plan: RestorePlan, turns: TurnBook): void {
  const instanceId = saved.agentInstanceId;
  if (plan.command !== undefined && saved.agent !== undefined && instanceId !== undefined) {
    const start = { instanceId, name: saved.agentName, kind: saved.agent };
    pane.occupant.start = start;
    setTimeout(() => {
      if (pane.occupant.start !== start) return;
      pane.occupant.start = undefined;
      turns.recheck(pane);
    }, DEFAULT_AGENT_START_TIMEOUT_MS).unref();
  }
  if (saved.queue?.length) turns.restore(pane, instanceId ?? '', saved.queue);
}

/** The tab a saved pane was in (HERDR_TAB_ID); a file from before tabs had one. */
function savedTabOf(workspace: SavedWorkspace, paneUid: number): number {
  return workspace.tabs?.find((tab) => layoutOrder(tab.layout).includes(paneUid))?.uid ?? FIRST_TAB_UID;
}
