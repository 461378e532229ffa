/**
 * Method-table entries for git worktrees as workspaces (docs/protocol.md §14);
 * spread into `METHODS` (methods.ts). The shapes are herdr's.
 */
import { z } from 'zod';
import { paneInfoSchema, tabInfoSchema, workspaceInfoSchema } from '../objects.js';
import { optional } from '../optional.js';
import { type MethodEntry, execText, label, workspaceId } from '../params.js';

/** Which repository: a workspace's, or an absolute directory inside it; neither means the active workspace's. */
const repositoryRef = {
  workspace_id: optional(workspaceId),
  cwd: optional(execText.describe('an absolute directory inside the repository')),
};

/** A branch name or any commit-ish git understands; git itself judges it (git_failed). */
const gitRef = execText.min(1).max(1024);
const absolutePath = execText.min(1).max(4096);

export const worktreeSourceSchema = z.object({
  repo_key: z.string(),
  repo_name: z.string(),
  repo_root: z.string(),
  source_checkout_path: z.string().describe('the checkout the request named (by workspace or cwd)'),
  source_workspace_id: z.string().optional().describe('the workspace the repository was taken from, if it was'),
});

export const worktreeInfoSchema = z.object({
  path: z.string(),
  branch: z.string().optional().describe('the branch checked out there (without refs/heads/); absent when detached or bare'),
  is_bare: z.boolean(),
  is_detached: z.boolean(),
  is_prunable: z.boolean().describe('git would prune it: its directory is gone'),
  is_linked_worktree: z.boolean().describe('false for the main checkout (the first one git lists)'),
  label: z.string().describe('the open workspace\'s label, else the branch, else the directory\'s name'),
  open_workspace_id: z.string().optional().describe('the workspace made for it by worktree.create or worktree.open, while open'),
});
export type WorktreeInfo = z.output<typeof worktreeInfoSchema>;

const workspaceAndPane = { workspace: workspaceInfoSchema, tab: tabInfoSchema, root_pane: paneInfoSchema, worktree: worktreeInfoSchema };

export const WORKTREE_METHODS = {
  'worktree.list': {
    params: z.object(repositoryRef),
    result: z.object({ type: z.literal('worktree_list'), source: worktreeSourceSchema, worktrees: z.array(worktreeInfoSchema) }),
    changesState: false,
  },
  'worktree.create': {
    params: z.object({
      ...repositoryRef,
      branch: optional(gitRef),
      base: optional(gitRef),
      path: optional(absolutePath),
      label: optional(label),
      focus: optional(z.boolean()),
    }),
    result: z.object({ type: z.literal('worktree_created'), ...workspaceAndPane }),
    changesState: true,
  },
  'worktree.open': {
    params: z.object({
      ...repositoryRef,
      path: optional(absolutePath),
      branch: optional(gitRef),
      label: optional(label),
      focus: optional(z.boolean()),
    }),
    result: z.object({ type: z.literal('worktree_opened'), ...workspaceAndPane, already_open: z.boolean() }),
    changesState: true,
  },
  'worktree.remove': {
    params: z.object({ workspace_id: workspaceId, force: optional(z.boolean()) }),
    result: z.object({ type: z.literal('worktree_removed'), workspace_id: z.string(), path: z.string(), forced: z.boolean() }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
