/** Every error code this server can produce on demand, and no leak from panes that come and go. */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES } from '../src/protocol/errors.js';
import { REPO_ROOT, codeOf, eventually, inspect, oneAnswer, rawExchange, startServer } from './helpers/server.js';


describe('error codes', () => {
  it('answers each with its code; the server keeps serving', async () => {
    const server = await startServer();
    try {
      await server.call('workspace.create', { cwd: server.dir });
      const seen = new Set<string>();
      const expect = async (code: string, promise: Promise<unknown>) => {
        assert.equal(await codeOf(promise), code);
        seen.add(code);
      };
      const { lines } = await rawExchange(server.socketPath, '{"id":"x","method":"nope","params":{}}\n');
      assert.equal(JSON.parse(lines[0] ?? '{}').error.code, 'invalid_request');
      seen.add('invalid_request');
      await expect('workspace_not_found', server.call('workspace.focus', { workspace_id: '9' }));
      await expect('pane_not_found', server.call('pane.read', { pane_id: '1-9', source: 'visible' }));
      await expect('invalid_key', server.call('pane.send_keys', { pane_id: '1-1', keys: ['Hyper'] }));
      await expect('workspace_create_failed', server.call('workspace.create', { cwd: '/nonexistent' }));
      await expect('pane_split_failed', server.call('pane.split', { target_pane_id: '1-1', direction: 'down', command: ['/nonexistent'] }));
      await expect('invalid_agent', server.call('pane.report_agent', { pane_id: '1-1', source: 'hook', agent: '', state: 'idle' }));
      await expect('agent_not_found', server.call('agent.get', { target: 'nobody' }));
      await expect('unsupported_agent_kind', server.call('agent.start', { kind: 'nethack' }));
      await expect('invalid_agent_name', server.call('agent.start', { name: 'No Name', kind: 'pi' }));
      await expect('invalid_agent_argument', server.call('agent.start', { kind: 'pi', args: ['a\nb'] }));
      await expect('agent_start_failed', server.call('agent.start', { command: ['/nonexistent'] }));
      await expect('invalid_target', server.call('layout.export', { workspace_id: '1', pane_id: '1-1' }));
      await expect('invalid_layout', server.call('layout.apply', { root: { type: 'split', direction: 'right', ratio: 2, first: { type: 'pane' }, second: { type: 'pane' } } }));
      await expect('layout_apply_failed', server.call('layout.apply', { root: { type: 'pane', command: ['/nonexistent'] } }));
      await expect('not_a_git_repository', server.call('worktree.list', { cwd: server.dir }));
      await expect('unsupported', server.call('popup.close', {}));
      const withoutGit = await startServer({ env: { PATH: '/nonexistent' } });
      try {
        await expect('git_unavailable', withoutGit.call('worktree.list', { cwd: withoutGit.dir }));
      } finally {
        await withoutGit.stop();
      }

      // A pane that ignores SIGHUP makes the shutdown wait its 2 s grace; a request meanwhile is refused.
      await server.call('workspace.create', { cwd: server.dir, command: ['/bin/sh', '-c', "trap '' HUP; sleep 600"] });
      const connection = await server.keepAlive();
      await connection.call('server.stop', {});
      await expect('server_unavailable', connection.call('workspace.create', { cwd: server.dir }));
      connection.close();
      assert.equal(await server.waitExit(), 0);

      // Not producible on demand: timeout and invalid_regex (waits, issue #3), pane_send_failed
      // (a pane whose process exited between the id lookup and the write), internal_error (bugs).
      const notProducible = ['timeout', 'invalid_regex', 'pane_send_failed', 'internal_error', 'events_lost'];
      // Codes that need a running agent, a repository or many reports are asserted in their area's test.
      const areaTests = ['agent-api', 'worktrees', 'pane-details', 'layouts', 'tabs', 'dialects', 'waits', 'turns', 'approvals', 'rules', 'integrations', 'plugins', 'agent-manifests', 'navigation'].map((name) => readFileSync(join(REPO_ROOT, 'test', `${name}.test.ts`), 'utf8'));
      const assertedInAreaTest = (code: string) => areaTests.some((source) => source.includes(`'${code}'`));
      assert.deepEqual(
        Object.keys(ERROR_CODES).filter((code) => !seen.has(code) && !notProducible.includes(code) && !assertedInAreaTest(code)),
        [],
      );
    } finally {
      await server.stop();
    }
  });
});

describe('leaks', () => {
  it('panes that come and go leave no fds, panes or workspaces behind', async () => {
    const server = await startServer();
    const fds = () => readdirSync(`/proc/${server.child.pid}/fd`).length;
    try {
      await server.call('workspace.create', { cwd: server.dir });
      const before = fds();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 5; i++) await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
        await server.call('workspace.create', { cwd: server.dir, command: ['/bin/true'] });
        for (let i = 0; i < 5; i++) await server.call('pane.close', { pane_id: '1-2' });
      }
      await eventually(async () => (await server.call('server.stats', {})).shards.every((s) => s.panes <= 1) || undefined, 'shards to drop the closed panes');
      const stats = await server.call('server.stats', {});
      assert.equal(stats.panes, 1);
      assert.equal(stats.workspaces, 1);
      await eventually(() => fds() <= before, `server fds back to ${before} (now ${fds()})`);
    } finally {
      await server.stop();
    }
  });

  it('a client that closes at once is let go at once, not kept for the close grace', async () => {
    const server = await startServer({ env: { HERDR_DEBUG_FAULTS: '1' } });
    try {
      const ping = async (): Promise<void> => void assert.equal((await oneAnswer(server.socketPath, { id: 'p', method: 'ping', params: {} })).result?.type, 'pong');
      for (let i = 0; i < 200; i++) await ping(); // what the first requests compile and allocate once
      const before = (await inspect(server)).heap_used_bytes;
      // 3 000 one-shot clients in a few seconds, inside the 5 s a client that holds its side open is given.
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 375; i++) await ping();
      }));
      const after = (await inspect(server)).heap_used_bytes;
      // Measured without the fix: 9 MB, ~3 KB a connection kept for the grace (socket, streams, abort controller, timer).
      assert.ok(after - before < 2 * 1024 * 1024, `3 000 closed connections left ${Math.round((after - before) / 1024)} KB on main's heap`);
    } finally {
      await server.stop();
    }
  });
});
