/** Git worktrees as a person reads them (docs/protocol.md §14): where each is, and the workspace open in it. */
import type { MethodResults } from '../../protocol/methods.js';
import type { WorktreeInfo } from '../../protocol/methods/worktrees.js';
import { alignedTable } from '../table.js';
import { terminalWidth } from '../reader.js';
import { directory, quoted } from './fields.js';

/** What a person should know of a worktree beyond its branch and place. */
function note(worktree: WorktreeInfo): string {
  return [
    worktree.is_linked_worktree ? '' : 'main checkout',
    worktree.is_bare ? 'bare' : '',
    worktree.is_detached ? 'detached' : '',
    worktree.is_prunable ? 'prunable (its directory is gone)' : '',
  ].filter(Boolean).join(', ');
}

/**
 * `worktree list`: one row each. `workspaceIds` turns the server's workspace ids into the
 * stable ids a person sees (`w3`).
 */
export function worktreeTable({ source, worktrees }: MethodResults['worktree.list'], workspaceIds: ReadonlyMap<string, string>): string {
  const title = `worktrees of ${source.repo_name} (${directory(source.repo_root)})\n`;
  if (worktrees.length === 0) return `${title}none\n`;
  return title + alignedTable(
    ['BRANCH', 'WORKSPACE', 'PATH', 'NOTE'],
    worktrees.map((worktree) => [
      worktree.branch ?? '-',
      worktree.open_workspace_id === undefined ? '-' : (workspaceIds.get(worktree.open_workspace_id) ?? worktree.open_workspace_id),
      directory(worktree.path),
      note(worktree),
    ]),
    terminalWidth(),
  );
}

/** `worktree create` and `worktree open`: the worktree and the workspace to work in. */
export function worktreeOpened(result: MethodResults['worktree.create'] | MethodResults['worktree.open']): string {
  const { workspace, root_pane: pane, worktree } = result;
  const verb = result.type === 'worktree_created' ? 'created worktree' : 'already_open' in result && result.already_open ? 'worktree already open:' : 'opened worktree';
  const branch = worktree.branch === undefined ? '' : ` on branch ${worktree.branch}`;
  return `${verb} ${directory(worktree.path)}${branch}: workspace ${workspace.stable_id}${quoted(workspace.label)} with pane ${pane.stable_id}${workspace.focused ? ', focused' : ''}\n`;
}

/** `worktree remove`. */
export const worktreeRemoved = (result: MethodResults['worktree.remove']): string =>
  `removed worktree ${directory(result.path)}${result.forced ? ' (forced)' : ''} and closed its workspace; the branch stays\n`;
