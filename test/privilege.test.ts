/**
 * Isolation and privilege: a pane's processes hold nothing of the server's
 * (no socket, pipe, eventfd or PTY master: only their own terminal), nothing
 * a client sends is run through a shell, and a client's `env` cannot change
 * the HERDR_* variables a pane's hooks trust. (The socket's 0600 and its
 * directory's 0700 are checked in transport.test.ts; no other pane's terminal
 * in isolation-and-load.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type TestServer, codeOf, eventually, newWorkspace, promptShown, readUntil, startServer } from './helpers/server.js';
import { fdTargets } from './helpers/proc.js';

async function printed(server: TestServer, command: string[]): Promise<string> {
  const { paneId } = await newWorkspace(server, { command: [...command] });
  return readUntil(server, paneId, (text) => text.trim() !== '', { source: 'recent' });
}

describe('isolation and privilege', () => {
  it("a pane's processes hold only their own terminal: none of the server's sockets, pipes or event fds", async () => {
    const server = await startServer({ workers: 2 });
    try {
      const panes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { paneId } = await newWorkspace(server, { command: ['bash', '--norc', '-i'] });
        panes.push(paneId);
      }
      // A client connected meanwhile: its socket must not leak into panes started after it either.
      const connection = await server.keepAlive();
      const { paneId: late } = await newWorkspace(server, { command: ['sh', '-c', 'sleep 600 & exec sleep 600'] });
      panes.push(late);
      const serverTargets = new Set(fdTargets(server.pid).values());
      for (const paneId of panes) {
        await promptShown(server, paneId).catch(() => undefined);
        const { pane } = await server.call('pane.get', { pane_id: paneId });
        const pid = pane.pid ?? 0;
        await eventually(() => readlinkSync(`/proc/${pid}/exe`) !== process.execPath, `pane ${paneId} to exec`);
        const targets = fdTargets(pid);
        const tty = targets.get('0') ?? '';
        assert.match(tty, /^\/dev\/pts\/\d+$/, `${paneId} reads its terminal`);
        for (const [fd, target] of targets) {
          assert.ok(target === tty || target === '/dev/null', `pane ${paneId} fd ${fd} is ${target}${serverTargets.has(target) ? ', one of the server\'s' : ''}`);
        }
      }
      connection.close();
    } finally {
      await server.stop();
    }
  });

  it('nothing a client sends is run through a shell: argv, cwd, env and labels are taken as they are', async () => {
    const server = await startServer();
    const marker = join(server.dir, 'pwned');
    const injection = `$(touch ${marker}); touch ${marker}; \`touch ${marker}\``;
    try {
      assert.equal(await codeOf(server.call('workspace.create', { cwd: server.dir, command: [`echo hi; touch ${marker}`] })), 'workspace_create_failed');
      assert.equal(await codeOf(server.call('workspace.create', { cwd: injection })), 'workspace_create_failed');
      // argv reaches the program as it is ("$0" below is expanded, never evaluated).
      assert.match(await printed(server, ['/bin/sh', '-c', 'printf "%s\\n" "$0"; exec sleep 600', injection]), /\$\(touch .*\); touch .*; `touch .*`/);
      const { paneId } = await newWorkspace(server, { label: injection, env: { INJECTED: injection }, command: ['/bin/sh', '-c', 'printf "%s\\n" "$INJECTED"; exec sleep 600'] });
      await readUntil(server, paneId, (text) => text.includes(`$(touch ${marker})`));
      assert.equal((await server.call('workspace.get', { workspace_id: paneId.split('-')[0] ?? '' })).workspace.label, injection);
      assert.equal(existsSync(marker), false, 'nothing was run through a shell');
    } finally {
      rmSync(marker, { force: true });
      await server.stop();
    }
  });

  it('a pane is a terminal even when the server runs in a CI job: CI markers stay out unless a client sets them', async () => {
    const server = await startServer({ env: { CI: 'true', CONTINUOUS_INTEGRATION: '1', CI_JOB_ID: '42', CIRCLE: 'kept' } });
    try {
      const script = 'env | grep -E "^(CI|CONTINUOUS_INTEGRATION|CI_[A-Z_]*|CIRCLE)=" | sort; echo END; exec sleep 600';
      const inherited = await readUntil(server, (await newWorkspace(server, { command: ['/bin/sh', '-c', script] })).paneId, (t) => t.includes('END'));
      assert.match(inherited, /^CIRCLE=kept$/m);
      assert.doesNotMatch(inherited, /^(CI|CONTINUOUS_INTEGRATION|CI_JOB_ID)=/m);
      const asked = await readUntil(server, (await newWorkspace(server, { env: { CI: '1' }, command: ['/bin/sh', '-c', script] })).paneId, (t) => t.includes('END'));
      assert.match(asked, /^CI=1$/m);
      assert.doesNotMatch(asked, /^CI_JOB_ID=/m);
    } finally {
      await server.stop();
    }
  });

  it("a client's env cannot override or shadow HERDR_*", async () => {
    const server = await startServer();
    try {
      const env = { HERDR_PANE_ID: 'w9:p9', HERDR_SOCKET_PATH: '/tmp/elsewhere.sock', HERDR_ENV: '0', HERDR_BIN_PATH: '/bin/false', HERDR_WORKSPACE_ID: 'w9' };
      const { paneId } = await newWorkspace(server, { env, command: ['/bin/sh', '-c', 'env | grep ^HERDR_ | sort; echo END; exec sleep 600'] });
      const shown = await readUntil(server, paneId, (t) => t.includes('END'));
      const { pane } = await server.call('pane.get', { pane_id: paneId });
      assert.match(shown, new RegExp(`^HERDR_PANE_ID=${pane.stable_id}$`, 'm'));
      assert.match(shown, new RegExp(`^HERDR_SOCKET_PATH=${server.socketPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
      assert.match(shown, /^HERDR_ENV=1$/m);
      assert.doesNotMatch(shown, /w9|elsewhere|\/bin\/false/);
      // A name with "=" would add a second HERDR_PANE_ID entry that getenv(3) finds first.
      const badEnvs: Array<Record<string, string>> = [{ 'HERDR_PANE_ID=w9:p9': 'x' }, { '': 'x' }, { 'A\u0000B': 'x' }, { A: 'x\u0000y' }];
      for (const bad of badEnvs) {
        assert.equal(await codeOf(server.call('workspace.create', { cwd: server.dir, env: bad })), 'invalid_request', JSON.stringify(bad));
      }
    } finally {
      await server.stop();
    }
  });
});
