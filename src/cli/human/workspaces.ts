/** Workspaces and tabs as a person reads them (docs/protocol.md §11): by their stable ids (`w2`, `w2:t1`). */
import type { MethodResults } from '../../protocol/methods.js';
import type { PaneInfo, TabInfo, WorkspaceInfo } from '../../protocol/objects.js';
import { count, directory, fieldLines, markedTable, quoted } from './fields.js';

/** An aggregate status, `-` when no pane holds an agent. */
const statusOf = (status: string): string => (status === 'unknown' ? '-' : status);

export function workspaceTable({ workspaces }: MethodResults['workspace.list']): string {
  if (workspaces.length === 0) return 'no workspaces (create one with: herdr workspace create)\n';
  return markedTable(
    ['WORKSPACE', 'LABEL', 'TABS', 'PANES', 'STATUS'],
    workspaces.map((workspace) => ({
      focused: workspace.focused,
      cells: [workspace.stable_id, workspace.label, String(workspace.tab_count ?? 1), String(workspace.pane_count), statusOf(workspace.agent_status)],
    })),
  );
}

/** One workspace in a few `key: value` lines (`workspace get`). */
export function workspaceFields({ workspace }: { workspace: WorkspaceInfo }): string {
  const worktree = workspace.worktree;
  return fieldLines([
    ['workspace', `${workspace.stable_id}${quoted(workspace.label)}${workspace.focused ? ' (focused)' : ''}`],
    ['status', statusOf(workspace.agent_status)],
    ['tabs', `${workspace.tab_count ?? 1}${workspace.active_tab_id ? `, ${workspace.active_tab_id} active` : ''}`],
    ['panes', String(workspace.pane_count)],
    ['worktree', worktree !== undefined && `${directory(worktree.checkout_path)} (${worktree.repo_name}${worktree.is_linked_worktree ? '' : ', main checkout'})`],
    ['tokens', workspace.tokens && Object.entries(workspace.tokens).map(([name, value]) => `${name}=${value}`).join(' ')],
  ]);
}

/** `workspace create`: the workspace and the pane to type into. */
export function workspaceCreated(workspace: WorkspaceInfo, rootPane: PaneInfo | undefined): string {
  const pane = rootPane === undefined ? '' : ` with pane ${rootPane.stable_id}`;
  return `created workspace ${workspace.stable_id}${quoted(workspace.label)}${pane}${workspace.focused ? ', focused' : ''}\n`;
}

export const workspaceFocused = ({ workspace }: MethodResults['workspace.focus']): string => `focused workspace ${workspace.stable_id}${quoted(workspace.label)}\n`;

export const workspaceRenamed = ({ workspace }: MethodResults['workspace.rename']): string => `workspace ${workspace.stable_id} is labelled "${workspace.label}"\n`;

export function tabTable({ tabs }: MethodResults['tab.list']): string {
  if (tabs.length === 0) return 'no tabs\n';
  return markedTable(
    ['TAB', 'LABEL', 'PANES', 'STATUS'],
    tabs.map((tab) => ({ focused: tab.focused, cells: [tab.tab_id, tab.label, String(tab.pane_count), statusOf(tab.agent_status)] })),
  );
}

/** One tab in a few `key: value` lines (`tab get`). */
export function tabFields({ tab }: { tab: TabInfo }): string {
  return fieldLines([
    ['tab', `${tab.tab_id}${quoted(tab.label)}${tab.focused ? ' (focused)' : ''}`],
    ['panes', String(tab.pane_count)],
    ['status', statusOf(tab.agent_status)],
  ]);
}

export const tabCreated = ({ tab, root_pane: pane }: MethodResults['tab.create']): string =>
  `created tab ${tab.tab_id}${quoted(tab.label)} with pane ${pane.stable_id}${tab.focused ? ', focused' : ''}\n`;

export const tabFocused = ({ tab }: MethodResults['tab.focus']): string => `focused tab ${tab.tab_id}${quoted(tab.label)}\n`;

export const tabRenamed = ({ tab }: MethodResults['tab.rename']): string => `tab ${tab.tab_id} is labelled "${tab.label}"\n`;

/** `layout apply`: the tab it built. */
export function layoutApplied({ layout }: MethodResults['layout.apply']): string {
  let panes = 0;
  const stack: unknown[] = [layout.root];
  while (stack.length > 0) {
    const node = stack.pop() as { type?: string; first?: unknown; second?: unknown };
    if (node.type === 'split') stack.push(node.first, node.second);
    else panes += 1;
  }
  return `built a new workspace from the layout: tab ${layout.tab_id}, ${count(panes, 'pane')}\n`;
}
