/**
 * `session.snapshot` (docs/protocol.md §13.5): built in one synchronous pass over the
 * registry, so it is exactly the state after the event whose seq it carries.
 */
import { type Dialect, protocolOfDialect } from '../../protocol/dialect.js';
import { VERSION } from '../../protocol/version.js';
import { hostsAgent } from '../agents/occupants.js';
import type { EventHub } from '../event-hub.js';
import { currentPaneIds, paneIds, tabStableId, withCurrentView, workspaceStableId } from '../ids.js';
import { flatLayout } from '../flat-layout.js';
import { describeLayout } from '../layout-description.js';
import type { Registry, TabRecord } from '../registry.js';
import type { Router } from '../router.js';
import { agentInfo, paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';

/**
 * A tab's layout in the snapshot: the tree `layout.export` gives, and on the current dialect
 * also herdr's flat layout fields (its snapshot's `layouts` are PaneLayoutSnapshots, §15.3),
 * so one object reads as either.
 */
function snapshotLayout(registry: Registry, tab: TabRecord, dialect: Dialect) {
  const tree = describeLayout(registry, tab);
  if (dialect !== 'current') return tree;
  const { area, panes, splits } = flatLayout(registry, tab);
  return { ...tree, area, panes, splits };
}

export function registerSessionSnapshotHandler(router: Router, { registry, events }: { registry: Registry; events: EventHub }): void {
  router.register('session.snapshot', (_params, { dialect }) => {
    const active = registry.activeWorkspace;
    const focused = registry.focusedPane;
    const tabs = registry.workspaces.flatMap((workspace) => workspace.tabs);
    const panes = registry.workspaces.flatMap((workspace) => registry.panesInLayoutOrder(workspace));
    return {
      type: 'session_snapshot',
      snapshot: withCurrentView({
        version: VERSION,
        protocol: protocolOfDialect(dialect),
        seq: events.emitted,
        focused_workspace_id: active ? String(active.position) : undefined,
        focused_pane_id: focused ? paneIds(focused).pane_id : undefined,
        workspaces: registry.workspaces.map((workspace) => workspaceInfo(registry, workspace)),
        panes: panes.map((pane) => paneInfo(registry, pane)),
        focused_tab_id: active ? tabStableId(active.uid, active.activeTab.uid) : undefined,
        tabs: tabs.map((tab) => tabInfo(registry, tab)),
        layouts: tabs.map((tab) => snapshotLayout(registry, tab, dialect)),
        agents: panes.filter(hostsAgent).map((pane) => agentInfo(registry, pane)),
      }, {
        ...(active ? { focused_workspace_id: workspaceStableId(active.uid) } : {}),
        ...(focused ? { focused_pane_id: currentPaneIds(focused).pane_id } : {}),
      }),
    };
  });
}
