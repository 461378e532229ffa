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

/** A saved workspace's layout without the panes that could not start (`kept`: those that did; at least one), and its focus. */
export function keptLayout(workspace: SavedWorkspace, kept: ReadonlySet<number>): { layout: LayoutNode; focusedPaneUid: number } {
  let layout: LayoutNode | null = workspace.layout;
  for (const uid of layoutOrder(workspace.layout)) if (!kept.has(uid) && layout) layout = removeLeaf(layout, uid);
  const first = [...kept][0] ?? workspace.focusedPaneUid;
  const focusedPaneUid = kept.has(workspace.focusedPaneUid) ? workspace.focusedPaneUid : ((layout ? layoutOrder(layout)[0] : undefined) ?? first);
  return { layout: layout ?? { kind: 'leaf', paneUid: focusedPaneUid }, focusedPaneUid };
}
