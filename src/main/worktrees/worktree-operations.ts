/**
 * What `worktree.*` requests do (docs/protocol.md §14): find the repository
 * (a workspace's checkout or a directory), ask git, and tie a workspace to a
 * checkout. Every check comes before the first change; a workspace that
 * cannot start after `git worktree add` takes the worktree (and a branch made
 * for it) away again, so a failed request leaves nothing behind.
 */
import { errorNaming, withCurrentView, workspaceMeta, workspaceRef, workspaceStableId } from '../ids.js';
import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, sep } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams, MethodResults } from '../../protocol/methods.js';
import type { WorkspaceWorktree } from '../../protocol/objects.js';
import type { WorktreeInfo } from '../../protocol/methods/worktrees.js';
import type { EventBatch } from '../event-hub.js';
import type { WorkspaceOperations } from '../operations/workspaces.js';
import type { PaneRecord, Registry, WorkspaceRecord } from '../registry.js';
import { paneInfo, tabInfo, workspaceInfo } from '../wire-views.js';
import { checkBranchName, deleteBranch, generatedBranchName, localBranchExists } from './branches.js';
import { asGitFailed, git } from './git.js';
import { type Repository, type RepositoryAt, repositoryAt, samePath } from './repository.js';
import { RepositoryQueue } from './repository-queue.js';
import { freeWorktreePath } from './where-to-put-it.js';
import { type WorktreeEntry, listWorktrees } from './worktree-list.js';

type RepositoryRef = { workspace_id?: string | undefined; cwd?: string | undefined };

export class WorktreeOperations {
  private readonly queue = new RepositoryQueue();

  constructor(
    private readonly registry: Registry,
    private readonly workspaces: WorkspaceOperations,
    /** Where worktrees go when the caller names no path (where-to-put-it.ts). */
    private readonly worktreesDir: string,
  ) {}

  async list(params: MethodParams<'worktree.list'>): Promise<MethodResults['worktree.list']> {
    const { at, workspace } = await this.repositoryOf(params);
    const { repository } = at;
    return {
      type: 'worktree_list',
      source: withCurrentView(
        {
          repo_key: repository.key,
          repo_name: repository.name,
          repo_root: repository.root,
          source_checkout_path: at.checkoutPath,
          source_workspace_id: workspace ? String(workspace.position) : undefined,
        },
        workspace ? { source_workspace_id: workspaceStableId(workspace.uid) } : {},
      ),
      worktrees: at.worktrees.map((entry) => this.info(repository, entry)),
    };
  }

  async create(params: MethodParams<'worktree.create'>, batch: EventBatch): Promise<MethodResults['worktree.create']> {
    if (params.path !== undefined && !isAbsolute(params.path)) throw new ProtocolError('invalid_request', `path must be absolute: ${params.path}`);
    const { at } = await this.repositoryOf(params);
    const { repository } = at;
    // git runs in the checkout the request named, so that a new branch starts from that checkout's HEAD.
    const source = at.checkoutPath;
    return this.queue.run(repository.key, async (): Promise<MethodResults['worktree.create']> => {
      const worktrees = await listWorktrees(source);
      const branch = params.branch ?? generatedBranchName();
      await checkBranchName(source, branch);
      const branchExists = await localBranchExists(source, branch);
      if (branchExists) {
        const holder = worktrees.find((entry) => entry.branch === branch);
        if (holder) throw new ProtocolError('worktree_branch_checked_out', `branch ${branch} is already checked out at ${holder.path}`);
        if (params.base !== undefined) {
          throw new ProtocolError('worktree_branch_exists', `branch ${branch} already exists; leave out base to check it out as it is`);
        }
      }
      const path = params.path ?? freeWorktreePath(this.worktreesDir, repository, branch);
      if (existsSync(path)) throw new ProtocolError('worktree_path_exists', `${path} already exists`);
      // `--` before the path: nothing the client sent is read as an option.
      const add = branchExists
        ? ['-C', source, 'worktree', 'add', '--', path, branch]
        : ['-C', source, 'worktree', 'add', '-b', branch, '--', path, ...(params.base === undefined ? [] : [params.base])];
      await git(add).catch((error: unknown) => {
        throw asGitFailed(error);
      });
      const checkoutPath = realpathSync(path);
      const entry: WorktreeEntry = { path: checkoutPath, branch, isBare: false, isDetached: false, isPrunable: false, isLocked: false, isLinked: true };
      let workspace: WorkspaceRecord;
      try {
        workspace = await this.openWorkspace(repository, entry, params, batch);
      } catch (error) {
        await this.undoAdd(repository, checkoutPath, branchExists ? undefined : branch);
        throw error;
      }
      const answer = this.answer(repository, entry, workspace);
      // After the new workspace's own events, as herdr orders them.
      batch.addEvent('worktree_created', { workspace: answer.workspace, worktree: answer.worktree }, workspaceMeta(workspace));
      return { type: 'worktree_created', ...answer };
    });
  }

  async open(params: MethodParams<'worktree.open'>, batch: EventBatch): Promise<MethodResults['worktree.open']> {
    if ((params.path === undefined) === (params.branch === undefined)) throw new ProtocolError('invalid_request', 'give exactly one of path and branch');
    if (params.path !== undefined && !isAbsolute(params.path)) throw new ProtocolError('invalid_request', `path must be absolute: ${params.path}`);
    const { at } = await this.repositoryOf(params);
    const { repository } = at;
    const entry = at.worktrees.find((candidate) =>
      params.path !== undefined ? samePath(candidate.path, params.path) : candidate.branch === params.branch,
    );
    const asked = params.path !== undefined ? `at ${params.path}` : `on branch ${params.branch ?? ''}`;
    if (!entry) throw new ProtocolError('worktree_not_found', `${repository.root} has no worktree ${asked}`);
    if (entry.isBare) throw new ProtocolError('worktree_not_found', `${entry.path} is the bare repository itself, which has no checkout to open`);
    // In the queue: two opens of one worktree at once make one workspace.
    return this.queue.run(repository.key, async (): Promise<MethodResults['worktree.open']> => {
      const open = this.openWorkspaceOf(repository, entry.path) ?? (await this.adoptWorkspaceOn(repository, entry, batch));
      // herdr gives an open workspace the label asked for (workspace_renamed), as a new one gets it.
      if (open && params.label !== undefined) this.workspaces.rename(open, params.label, batch);
      if (open && params.focus) this.workspaces.focus(open, batch);
      const workspace = open ?? (await this.openWorkspace(repository, entry, params, batch));
      const answer = { ...this.answer(repository, entry, workspace), already_open: open !== undefined };
      batch.addEvent('worktree_opened', { workspace: answer.workspace, worktree: answer.worktree, already_open: answer.already_open }, workspaceMeta(workspace));
      return { type: 'worktree_opened', ...answer };
    });
  }

  async remove(params: MethodParams<'worktree.remove'>, batch: EventBatch): Promise<MethodResults['worktree.remove']> {
    const workspace = this.registry.resolveWorkspace(params.workspace_id);
    const worktree = workspace.worktree;
    if (!worktree) throw new ProtocolError('not_a_worktree_workspace', `workspace ${params.workspace_id} was not made for a worktree (worktree.create or worktree.open)`);
    if (!worktree.is_linked_worktree) {
      throw new ProtocolError('not_a_worktree_workspace', `workspace ${params.workspace_id} is the main checkout of ${worktree.repo_root}, which git does not remove`);
    }
    const force = params.force ?? false;
    const path = worktree.checkout_path;
    // What worktree_removed tells: the workspace as it was, and the worktree as git listed it before it went.
    let removed: WorktreeInfo = this.removedInfo(workspace, undefined);
    await this.queue.run(worktree.repo_key, async () => {
      const listed = await listWorktrees(worktree.repo_root).catch(() => []);
      removed = this.removedInfo(workspace, listed.find((candidate) => samePath(candidate.path, path)));
      if (!existsSync(path)) {
        // Already deleted by hand: git only has to forget it.
        await git(['-C', worktree.repo_root, 'worktree', 'prune']).catch(() => undefined);
        return;
      }
      if (!force) {
        const changes = (await git(['-C', path, 'status', '--porcelain', '-z']).catch((error: unknown) => { throw asGitFailed(error); }))
          .split('\0')
          .filter((line) => line !== '');
        if (changes.length > 0) {
          const shown = changes.slice(0, 5).map((line) => line.slice(3)).join(', ');
          throw new ProtocolError('worktree_dirty', `${path} has ${changes.length} changed or untracked file(s) (${shown}${changes.length > 5 ? ', …' : ''}); nothing was removed (force removes it anyway)`);
        }
      }
      await git(['-C', worktree.repo_root, 'worktree', 'remove', ...(force ? ['--force'] : []), '--', path]).catch((error: unknown) => {
        throw asGitFailed(error);
      });
    });
    const closed = workspaceRef(workspace);
    const meta = workspaceMeta(workspace);
    // The workspace may have closed while git worked.
    const stillOpen = this.registry.workspaces.includes(workspace);
    const before = stillOpen ? workspaceInfo(this.registry, workspace) : undefined;
    if (stillOpen) this.workspaces.close(workspace, batch);
    batch.addEvent('worktree_removed', { ...closed, ...(before ? { workspace: before } : {}), worktree: removed, forced: force }, meta);
    return { type: 'worktree_removed', ...closed, path, forced: force };
  }

  /** A removed worktree's info: git's entry when it had one, else what the workspace knew; no open workspace any more. */
  private removedInfo(workspace: WorkspaceRecord, entry: WorktreeEntry | undefined): WorktreeInfo {
    const path = entry?.path ?? workspace.worktree?.checkout_path ?? '';
    return {
      path,
      branch: entry?.branch,
      is_bare: entry?.isBare ?? false,
      is_detached: entry?.isDetached ?? false,
      is_prunable: entry?.isPrunable ?? !existsSync(path),
      is_linked_worktree: entry?.isLinked ?? true,
      label: workspaceInfo(this.registry, workspace).label,
    };
  }

  /** The repository a request names: by workspace, by directory, else the active workspace's. */
  private async repositoryOf(ref: RepositoryRef): Promise<{ at: RepositoryAt; workspace: WorkspaceRecord | undefined }> {
    if (ref.workspace_id !== undefined && ref.cwd !== undefined) throw new ProtocolError('invalid_request', 'give workspace_id or cwd, not both');
    if (ref.cwd !== undefined) {
      if (!isAbsolute(ref.cwd)) throw new ProtocolError('invalid_request', `cwd must be absolute: ${ref.cwd}`);
      return { at: await repositoryAt(ref.cwd), workspace: undefined };
    }
    const workspace = ref.workspace_id !== undefined ? this.registry.resolveWorkspace(ref.workspace_id) : this.registry.activeWorkspace;
    if (!workspace) throw new ProtocolError('workspace_not_found', 'no workspace is active; give workspace_id or cwd');
    return { at: await repositoryAt(this.directoryOf(workspace)), workspace };
  }

  /** A worktree workspace's checkout, else where its root pane's shell is now. */
  private directoryOf(workspace: WorkspaceRecord): string {
    if (workspace.worktree) return workspace.worktree.checkout_path;
    const cwd = this.rootPaneOf(workspace)?.cwd;
    if (cwd === undefined) throw errorNaming('not_a_git_repository', (name) => `the directory of workspace ${name(workspace)} is not known yet`);
    return cwd;
  }

  private async openWorkspace(
    repository: Repository,
    entry: WorktreeEntry,
    params: { label?: string | undefined; focus?: boolean | undefined },
    batch: EventBatch,
  ): Promise<WorkspaceRecord> {
    const worktree: WorkspaceWorktree = {
      repo_key: repository.key,
      repo_name: repository.name,
      repo_root: repository.root,
      checkout_path: entry.path,
      is_linked_worktree: entry.isLinked,
    };
    return this.workspaces.create(
      { cwd: entry.path, command: undefined, env: undefined, cols: undefined, rows: undefined, label: params.label, focus: params.focus ?? false, worktree },
      batch,
    );
  }

  /** Takes back a worktree just added (and its branch, if this request made it). */
  private async undoAdd(repository: Repository, path: string, createdBranch: string | undefined): Promise<void> {
    try {
      await git(['-C', repository.root, 'worktree', 'remove', '--force', '--', path]);
      if (createdBranch !== undefined) await deleteBranch(repository.root, createdBranch);
    } catch (error) {
      console.error(`herdr: a worktree that failed to open could not be taken back (${path}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * herdr's rule for a checkout opened by other means: a workspace that is no worktree's and
   * whose root pane works in that checkout (git's top level of its directory) is the
   * worktree's open workspace. It becomes the worktree's, told as `workspace_updated`.
   */
  private async adoptWorkspaceOn(repository: Repository, entry: WorktreeEntry, batch: EventBatch): Promise<WorkspaceRecord | undefined> {
    const checkout = realPathOf(entry.path);
    for (const workspace of [...this.registry.workspaces]) {
      const cwd = workspace.worktree ? undefined : this.rootPaneOf(workspace)?.cwd;
      // Only a directory in the checkout can be in it; git is asked about those alone.
      if (cwd === undefined || !isWithin(realPathOf(cwd), checkout)) continue;
      const at = await repositoryAt(cwd).catch(() => undefined);
      if (!at || at.repository.key !== repository.key || !samePath(at.checkoutPath, entry.path)) continue;
      // git ran between: the workspace may have closed or become another worktree's.
      if (workspace.worktree || !this.registry.workspaces.includes(workspace)) continue;
      workspace.worktree = {
        repo_key: repository.key,
        repo_name: repository.name,
        repo_root: repository.root,
        checkout_path: entry.path,
        is_linked_worktree: entry.isLinked,
      };
      batch.addEvent('workspace_updated', { workspace: workspaceInfo(this.registry, workspace) }, workspaceMeta(workspace));
      return workspace;
    }
    return undefined;
  }

  private openWorkspaceOf(repository: Repository, path: string): WorkspaceRecord | undefined {
    return this.registry.workspaces.find((workspace) => workspace.worktree?.repo_key === repository.key && samePath(workspace.worktree.checkout_path, path));
  }

  private info(repository: Repository, entry: WorktreeEntry): WorktreeInfo {
    const open = this.openWorkspaceOf(repository, entry.path);
    return withCurrentView({
        path: entry.path,
        branch: entry.branch,
        is_bare: entry.isBare,
        is_detached: entry.isDetached,
        is_prunable: entry.isPrunable,
        is_linked_worktree: entry.isLinked,
        label: open ? workspaceInfo(this.registry, open).label : (entry.branch ?? basename(entry.path)),
        open_workspace_id: open ? String(open.position) : undefined,
      }, open ? { open_workspace_id: workspaceStableId(open.uid) } : {});
  }

  /** The first pane of the workspace's first tab. */
  private rootPaneOf(workspace: WorkspaceRecord): PaneRecord | undefined {
    const first = workspace.tabs[0];
    return (first && this.registry.rootPane(first)) ?? workspace.panes[0];
  }

  private answer(repository: Repository, entry: WorktreeEntry, workspace: WorkspaceRecord) {
    const root = this.rootPaneOf(workspace);
    if (!root) throw errorNaming('internal_error', (name) => `workspace ${name(workspace)} has no pane`);
    return {
      workspace: workspaceInfo(this.registry, workspace),
      tab: tabInfo(this.registry, root.tab),
      root_pane: paneInfo(this.registry, root),
      worktree: this.info(repository, entry),
    };
  }
}

function realPathOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `dir` or inside it (both real paths). */
function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}
