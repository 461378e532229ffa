/** Method-table entries for git worktrees as workspaces; spread into `METHODS` (methods.ts). */
import type { MethodEntry } from '../params.js';

export const WORKTREE_METHODS = {} as const satisfies Record<string, MethodEntry>;
