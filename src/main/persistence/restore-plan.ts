/**
 * How one saved pane comes back (docs/persistence.md): in its directory, or
 * `$HOME` when that is gone; running its command, or the agent's resume
 * command with --resume-agents, or the shell when the program is gone; and
 * the marker row that says so above the new process's output.
 */
import type { PreviousAgentSession } from '../../protocol/objects.js';
import { resumeArgv } from '../agent-resume.js';
import { directoryProblem, programProblem } from '../spawn-spec.js';
import { type LayoutNode, layoutOrder, removeLeaf } from '../layout.js';
import type { SavedPane, SavedWorkspace } from './session-file.js';
import type { SavedTabShape } from '../registry.js';

export interface RestorePlan {
  argv: string[];
  cwd: string;
  marker: string;
  /** What the pane runs, to be saved again (the resume command when it resumed). */
  command: string[] | undefined;
  /** The agent's session, when the pane was not resumed into it: a client may decide. */
  previousAgentSession: PreviousAgentSession | undefined;
}

export interface RestoreContext {
  shell: string;
  home: string;
  resumeAgents: boolean;
  savedAt: number;
}

/** `2026-12-04 00:31:02`, local time. */
function when(ms: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

export function restorePlan(pane: SavedPane, context: RestoreContext): RestorePlan {
  const notes: string[] = [];
  let cwd = pane.cwd ?? context.home;
  if (directoryProblem(cwd)) {
    notes.push(`${cwd} is gone: started in ${context.home}`);
    cwd = context.home;
  }
  const path = pane.env?.PATH ?? process.env.PATH;
  const session = pane.agent && pane.agentSession && (pane.agentSession.id || pane.agentSession.path) ? pane.agentSession : undefined;
  let command = pane.command;
  let resumed = false;
  if (context.resumeAgents && pane.agent && session) {
    const argv = resumeArgv(pane.agent, session);
    if (argv && !programProblem(argv[0] ?? '', path, cwd)) {
      command = argv;
      resumed = true;
      notes.push(`resumed: ${argv.join(' ')}`);
    }
  }
  if (command && programProblem(command[0] ?? '', path, cwd)) {
    notes.push(`${command[0]} is gone: started ${context.shell}`);
    command = undefined;
  }
  const marker = `── restored from ${when(context.savedAt)}${notes.length > 0 ? `; ${notes.join('; ')}` : ''} ──`;
  return {
    argv: command ?? [context.shell],
    cwd,
    marker,
    command,
    previousAgentSession: !resumed && session && pane.agent ? { agent: pane.agent, ...session } : undefined,
  };
}

/** A workspace's tabs as restored: those that kept a pane, which of them is active, and each pane's tab. */
export interface KeptTabs {
  tabs: SavedTabShape[];
  activeTabUid: number;
  tabOfPane: Map<number, number>;
}

/**
 * A saved workspace's tabs without the panes that could not start (`kept`: those that did;
 * at least one): a tab left empty goes, a focus on a pane that went moves to the tab's
 * first. A file from before tabs holds one tab (uid 1).
 */
export function keptTabs(workspace: SavedWorkspace, kept: ReadonlySet<number>): KeptTabs {
  const saved = workspace.tabs ?? [{ uid: 1, label: undefined, layout: workspace.layout, focusedPaneUid: workspace.focusedPaneUid }];
  const tabs: SavedTabShape[] = [];
  const tabOfPane = new Map<number, number>();
  for (const tab of saved) {
    let layout: LayoutNode | null = tab.layout;
    for (const uid of layoutOrder(tab.layout)) if (!kept.has(uid) && layout) layout = removeLeaf(layout, uid);
    if (!layout) continue;
    const order = layoutOrder(layout);
    for (const uid of order) tabOfPane.set(uid, tab.uid);
    const focusedPaneUid = kept.has(tab.focusedPaneUid) && order.includes(tab.focusedPaneUid) ? tab.focusedPaneUid : (order[0] as number);
    // A zoom stays only on the tree it was made on (a pane that did not come back ends it, as a close does).
    const zoomed = tab.zoomed === true && order.length === layoutOrder(tab.layout).length;
    tabs.push({ uid: tab.uid, label: tab.label, layout, focusedPaneUid, zoomed });
  }
  // A pane no saved layout held (a damaged file) still gets a place: a tab of its own.
  let nextUid = Math.max(0, ...saved.map((tab) => tab.uid)) + 1;
  for (const uid of kept) {
    if (tabOfPane.has(uid)) continue;
    tabs.push({ uid: nextUid, label: undefined, layout: { kind: 'leaf', paneUid: uid }, focusedPaneUid: uid });
    tabOfPane.set(uid, nextUid++);
  }
  const active = tabs.find((tab) => tab.uid === workspace.activeTabUid) ?? (tabs[0] as SavedTabShape);
  return { tabs, activeTabUid: active.uid, tabOfPane };
}
