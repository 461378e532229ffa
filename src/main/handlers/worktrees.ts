/** worktree.* (git worktrees as workspaces) (docs/protocol.md §14). */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';
import { defaultWorktreesDir } from '../worktrees/where-to-put-it.js';
import { WorktreeOperations } from '../worktrees/worktree-operations.js';

export function registerWorktreeHandlers(router: Router, core: ServerCore, options: { worktreesDir?: string | undefined } = {}): void {
  const worktrees = new WorktreeOperations(core.registry, core.workspaces, options.worktreesDir ?? defaultWorktreesDir());

  router.register('worktree.list', (params) => worktrees.list(params));
  router.register('worktree.create', (params, { batch }) => worktrees.create(params, batch));
  router.register('worktree.open', (params, { batch }) => worktrees.open(params, batch));
  router.register('worktree.remove', (params, { batch }) => worktrees.remove(params, batch));
}
