/** worktree.* (git worktrees as workspaces) (docs/protocol.md §5). */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';

export function registerWorktreeHandlers(_router: Router, _core: ServerCore): void {}
