/**
 * Git worktrees as workspaces (docs/protocol.md §14), with the real `git` on
 * real repositories this test makes: list, create (a new branch, an existing
 * one), open (once), remove (clean, dirty refused then forced); each refusal
 * leaves the same workspaces, worktrees, branches and directories as before;
 * a workspace that cannot start takes its worktree and branch back; the CLI;
 * `workspace_info.worktree`, also after a restart.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MethodResults } from '../src/protocol/methods.js';
import { type TestServer, codeOf, herdrCli, startServer, tempDir } from './helpers/server.js';
import { git, gitWorks } from './helpers/git.js';

/** A repository with one commit on `main`. */
function makeRepository(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README'), 'hello\n');
  git(dir, 'add', 'README');
  git(dir, 'commit', '-q', '-m', 'init');
  return realpathSync(dir);
}

describe('git worktrees as workspaces', { skip: gitWorks() ? false : 'git is not installed' }, () => {
  const root = tempDir('herdr-worktrees-');
  const worktreesDir = join(root, 'worktrees');
  const socketPath = join(root, 'herdr.sock');
  const serverOptions = { socketPath, stateDir: join(root, 'state'), serverArgs: ['--worktrees-dir', worktreesDir] };
  let server: TestServer;
  let repo: string;
  let plainDir: string;

  before(async () => {
    repo = makeRepository(join(root, 'app'));
    plainDir = join(root, 'plain');
    mkdirSync(plainDir);
    server = await startServer(serverOptions);
    // The active workspace: not in a repository.
    await server.call('workspace.create', { cwd: plainDir, label: 'plain' });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** What a failed request must leave as it was. */
  const world = async () => ({
    workspaces: (await server.call('workspace.list', {})).workspaces.map((w) => w.stable_id),
    worktrees: git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')),
    branches: git(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort(),
    directories: existsSync(worktreesDir) ? readdirSync(worktreesDir, { recursive: true }).map(String).sort() : [],
  });
  const refusedLeavingNothing = async (code: string, request: () => Promise<unknown>) => {
    const before = await world();
    assert.equal(await codeOf(request()), code);
    assert.deepEqual(await world(), before, `a ${code} refusal changed nothing`);
  };
  const workspaceOf = async (id: string) => (await server.call('workspace.get', { workspace_id: id })).workspace;

  let created: MethodResults['worktree.create'];

  it('lists the main checkout of a repository', async () => {
    const listed = await server.call('worktree.list', { cwd: join(repo) });
    assert.equal(listed.source.repo_root, repo);
    assert.equal(listed.source.repo_name, 'app');
    assert.equal(listed.source.source_checkout_path, repo);
    assert.match(listed.source.repo_key, /^[0-9a-f]{16}$/);
    assert.deepEqual(listed.worktrees, [
      { path: repo, branch: 'main', is_bare: false, is_detached: false, is_prunable: false, is_linked_worktree: false, label: 'main' },
    ]);
  });

  it('creates a new branch in a worktree under --worktrees-dir, with a workspace whose shell starts there', async () => {
    created = await server.call('worktree.create', { cwd: repo, branch: 'feature/login' });
    const key = (await server.call('worktree.list', { cwd: repo })).source.repo_key;
    const path = join(realpathSync(worktreesDir), `app-${key.slice(0, 8)}`, 'feature-login');
    assert.equal(created.type, 'worktree_created');
    assert.deepEqual(created.worktree, {
      path, branch: 'feature/login', is_bare: false, is_detached: false, is_prunable: false, is_linked_worktree: true,
      label: created.workspace.label, open_workspace_id: created.workspace.workspace_id,
    });
    assert.equal(created.root_pane.cwd, path);
    assert.equal(created.root_pane.workspace_id, created.workspace.workspace_id);
    assert.equal(created.workspace.focused, false, 'focus defaults to false');
    assert.deepEqual(created.workspace.worktree, { repo_key: key, repo_name: 'app', repo_root: repo, checkout_path: path, is_linked_worktree: true });
    assert.deepEqual((await workspaceOf(created.workspace.workspace_id)).worktree, created.workspace.worktree);
    assert.equal(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'feature/login');
    // Listed from the workspace itself: the source is that workspace, and the worktree is open in it.
    const listed = await server.call('worktree.list', { workspace_id: created.workspace.workspace_id });
    assert.equal(listed.source.source_workspace_id, created.workspace.workspace_id);
    assert.equal(listed.source.source_checkout_path, path);
    assert.equal(listed.worktrees.find((w) => w.path === path)?.open_workspace_id, created.workspace.workspace_id);
  });

  it('checks out an existing branch that no worktree has, from a new base and into a given path', async () => {
    git(repo, 'branch', 'existing');
    const path = join(root, 'existing-wt');
    const { worktree, workspace } = await server.call('worktree.create', { cwd: repo, branch: 'existing', path, label: 'mine', focus: true });
    assert.equal(worktree.path, realpathSync(path));
    assert.equal(worktree.branch, 'existing');
    assert.equal(workspace.label, 'mine');
    assert.equal(workspace.focused, true);
    assert.equal(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'existing');

    const fromBase = await server.call('worktree.create', { cwd: repo, branch: 'from-base', base: 'main', path: join(root, 'from-base') });
    assert.equal(git(fromBase.worktree.path, 'rev-parse', 'HEAD'), git(repo, 'rev-parse', 'main'));
  });

  it('opens a worktree made by hand, and answers the open workspace when asked again', async () => {
    const path = join(root, 'by-hand');
    git(repo, 'worktree', 'add', '-q', '-b', 'by-hand', path);
    const first = await server.call('worktree.open', { cwd: repo, path });
    assert.equal(first.already_open, false);
    assert.equal(first.workspace.worktree?.checkout_path, realpathSync(path));
    assert.equal(first.root_pane.cwd, realpathSync(path));
    const count = (await server.call('workspace.list', {})).workspaces.length;
    const again = await server.call('worktree.open', { cwd: repo, branch: 'by-hand', focus: true });
    assert.equal(again.already_open, true);
    assert.equal(again.workspace.stable_id, first.workspace.stable_id);
    assert.equal(again.workspace.focused, true);
    assert.equal((await server.call('workspace.list', {})).workspaces.length, count, 'no second workspace');
  });

  it('takes a workspace opened in the checkout by other means as the worktree\'s, as herdr does (workspace_updated)', async () => {
    const path = join(root, 'adopted');
    git(repo, 'worktree', 'add', '-q', '-b', 'adopted', path);
    mkdirSync(join(path, 'deep'));
    const plain = (await server.call('workspace.create', { cwd: join(path, 'deep'), label: 'opened by hand' })).workspace;
    assert.equal(plain.worktree, undefined);
    const count = (await server.call('workspace.list', {})).workspaces.length;
    const opened = await server.call('worktree.open', { cwd: repo, branch: 'adopted' });
    assert.equal(opened.already_open, true);
    assert.equal(opened.workspace.stable_id, plain.stable_id);
    assert.equal(opened.workspace.worktree?.checkout_path, realpathSync(path));
    assert.equal((await server.call('workspace.list', {})).workspaces.length, count, 'no second workspace');
    const listed = await server.call('worktree.list', { cwd: repo });
    assert.equal(listed.worktrees.find((w) => w.branch === 'adopted')?.open_workspace_id, opened.workspace.workspace_id);
    await server.call('workspace.close', { workspace_id: plain.stable_id });
  });

  it('removes a clean worktree, closes its workspace and keeps its branch', async () => {
    const workspace = (await server.call('worktree.open', { cwd: repo, branch: 'by-hand' })).workspace;
    const path = workspace.worktree?.checkout_path ?? '';
    const removed = await server.call('worktree.remove', { workspace_id: workspace.stable_id });
    assert.deepEqual(removed, { type: 'worktree_removed', workspace_id: workspace.workspace_id, path, forced: false });
    assert.equal(existsSync(path), false);
    assert.ok(!git(repo, 'worktree', 'list').includes(path));
    assert.ok(git(repo, 'branch', '--list', 'by-hand').includes('by-hand'), 'the branch stays');
    assert.equal(await codeOf(server.call('workspace.get', { workspace_id: workspace.stable_id })), 'workspace_not_found');
  });

  it('refuses to remove a worktree with changes unless forced', async () => {
    const { workspace, worktree } = await server.call('worktree.create', { cwd: repo, branch: 'dirty' });
    writeFileSync(join(worktree.path, 'scratch.txt'), 'unsaved work\n');
    await refusedLeavingNothing('worktree_dirty', () => server.call('worktree.remove', { workspace_id: workspace.stable_id }));
    assert.ok(existsSync(join(worktree.path, 'scratch.txt')));
    const removed = await server.call('worktree.remove', { workspace_id: workspace.stable_id, force: true });
    assert.equal(removed.forced, true);
    assert.equal(existsSync(worktree.path), false);
    assert.ok(git(repo, 'branch', '--list', 'dirty').includes('dirty'), 'the branch stays');
  });

  it('answers each bad request with its own code and leaves nothing behind', async () => {
    const plain = (await server.call('workspace.list', {})).workspaces.find((w) => w.label === 'plain');
    assert.ok(plain);
    await refusedLeavingNothing('not_a_git_repository', () => server.call('worktree.list', { cwd: plainDir }));
    await refusedLeavingNothing('not_a_git_repository', () => server.call('worktree.create', { cwd: plainDir, branch: 'x' }));
    await refusedLeavingNothing('not_a_git_repository', () => server.call('worktree.create', { workspace_id: plain.stable_id, branch: 'x' }));
    await refusedLeavingNothing('not_a_git_repository', () => server.call('worktree.list', { cwd: join(root, 'missing') }));
    await refusedLeavingNothing('worktree_branch_checked_out', () => server.call('worktree.create', { cwd: repo, branch: 'main' }));
    await refusedLeavingNothing('worktree_branch_checked_out', () => server.call('worktree.create', { cwd: repo, branch: 'feature/login' }));
    await refusedLeavingNothing('worktree_branch_exists', () => server.call('worktree.create', { cwd: repo, branch: 'by-hand', base: 'main' }));
    await refusedLeavingNothing('worktree_path_exists', () => server.call('worktree.create', { cwd: repo, branch: 'new-one', path: plainDir }));
    await refusedLeavingNothing('git_failed', () => server.call('worktree.create', { cwd: repo, branch: 'new-two', base: 'no-such-ref' }));
    await refusedLeavingNothing('git_failed', () => server.call('worktree.create', { cwd: repo, branch: 'bad..name' }));
    await refusedLeavingNothing('worktree_not_found', () => server.call('worktree.open', { cwd: repo, path: plainDir }));
    await refusedLeavingNothing('worktree_not_found', () => server.call('worktree.open', { cwd: repo, branch: 'no-such-branch' }));
    await refusedLeavingNothing('not_a_worktree_workspace', () => server.call('worktree.remove', { workspace_id: plain.stable_id }));
    await refusedLeavingNothing('invalid_request', () => server.call('worktree.list', { cwd: 'relative/dir' }));
    await refusedLeavingNothing('invalid_request', () => server.call('worktree.list', { cwd: repo, workspace_id: plain.stable_id }));
    await refusedLeavingNothing('invalid_request', () => server.call('worktree.open', { cwd: repo }));
    await refusedLeavingNothing('invalid_request', () => server.call('worktree.create', { cwd: repo, branch: 'rel', path: 'relative' }));
    // The main checkout opens as a workspace, but git never removes it.
    const main = await server.call('worktree.open', { cwd: repo, path: repo });
    assert.equal(main.worktree.is_linked_worktree, false);
    await refusedLeavingNothing('not_a_worktree_workspace', () => server.call('worktree.remove', { workspace_id: main.workspace.stable_id }));
    await server.call('workspace.close', { workspace_id: main.workspace.stable_id });
  });

  it('takes the worktree and its new branch back when the workspace cannot start', async () => {
    const broken = await startServer({ serverArgs: ['--worktrees-dir', worktreesDir], shell: join(root, 'no-such-shell') });
    try {
      const before = await world();
      assert.equal(await codeOf(broken.call('worktree.create', { cwd: repo, branch: 'never' })), 'workspace_create_failed');
      assert.deepEqual(await world(), before);
      git(repo, 'branch', 'kept');
      assert.equal(await codeOf(broken.call('worktree.create', { cwd: repo, branch: 'kept' })), 'workspace_create_failed');
      assert.deepEqual({ ...(await world()), branches: [] }, { ...before, branches: [] });
      assert.ok(git(repo, 'branch', '--list', 'kept').includes('kept'), 'a branch the user had is never deleted');
    } finally {
      await broken.stop();
    }
  });

  it('works from the CLI: create, list, remove, and a usage error', async () => {
    const herdr = herdrCli(server);
    const made = JSON.parse((await herdr('worktree', 'create', '--cwd', repo, '--branch', 'cli-branch', '--label', 'from cli')).stdout);
    assert.equal(made.id, 'cli:worktree:create');
    assert.equal(made.result.worktree.branch, 'cli-branch');
    assert.equal(made.result.workspace.label, 'from cli');
    const listed = JSON.parse((await herdr('worktree', 'list', '--cwd', made.result.worktree.path)).stdout);
    assert.equal(listed.result.source.source_checkout_path, made.result.worktree.path);
    assert.ok(listed.result.worktrees.some((w: { branch?: string }) => w.branch === 'cli-branch'));
    const removed = JSON.parse((await herdr('worktree', 'remove', '--workspace', made.result.workspace.stable_id)).stdout);
    assert.equal(removed.result.path, made.result.worktree.path);
    await assert.rejects(herdr('worktree', 'open', '--cwd', repo), (error: { code: number; stderr: string }) =>
      error.code === 2 && /exactly one of --path and --branch/.test(error.stderr));
    await assert.rejects(herdr('worktree', 'remove', '--workspace', '1'), (error: { code: number; stderr: string }) =>
      error.code === 1 && /not_a_worktree_workspace/.test(error.stderr));
  });

  it('keeps a workspace\'s worktree across a restart', async () => {
    const kept = created.workspace.worktree;
    await server.stop();
    server = await startServer(serverOptions);
    const { workspaces } = await server.call('workspace.list', {});
    const back = workspaces.find((w) => w.stable_id === created.workspace.stable_id);
    assert.deepEqual(back?.worktree, kept);
    const listed = await server.call('worktree.list', { cwd: repo });
    assert.equal(listed.worktrees.find((w) => w.path === kept?.checkout_path)?.open_workspace_id, back?.workspace_id);
  });
});
