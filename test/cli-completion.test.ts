/** `herdr completion`: the bash script loads and completes commands, flags and live ids through the real binary. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { HERDR_BIN, type TestServer, startServer, tempDir } from './helpers/server.js';

const run = promisify(execFile);

describe('herdr completion', () => {
  let server: TestServer;
  let path: string;
  before(async () => {
    server = await startServer();
    await server.call('workspace.create', {});
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(HERDR_BIN, join(bin, 'herdr'));
    path = `${bin}:${process.env.PATH ?? ''}`;
  });
  after(() => server.stop());

  /** What bash offers for the words typed so far (the last one being completed). */
  const complete = async (...words: string[]) => {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    const script = `source <(herdr completion bash) && COMP_WORDS=(herdr ${quoted}) && COMP_CWORD=${words.length} && { _herdr; printf '%s\\n' "\${COMPREPLY[@]}"; }`;
    const { stdout } = await run('bash', ['-c', script], { env: { ...process.env, PATH: path } });
    return stdout.split('\n').filter(Boolean);
  };

  it('loads in bash', async () => {
    const { stdout } = await run('bash', ['-c', 'source <(herdr completion bash) && complete -p herdr'], { env: { ...process.env, PATH: path } });
    assert.match(stdout, /complete .*-F _herdr herdr/);
  });

  it('completes groups, commands and flags', async () => {
    assert.deepEqual((await complete('wo')).sort(), ['workspace', 'worktree']);
    assert.deepEqual((await complete('pane', 're')).sort(), ['read', 'release-agent', 'rename', 'report-agent', 'report-agent-session', 'report-metadata']);
    assert.deepEqual((await complete('pane', 'read', '--')).sort(), ['--ansi', '--format', '--host', '--json', '--lines', '--raw', '--socket', '--source', '--ssh-command']);
    assert.deepEqual((await complete('t')).sort(), ['tab']);
    assert.deepEqual((await complete('tab', '')).sort(), ['close', 'create', 'focus', 'get', 'list', 'rename']);
    assert.deepEqual((await complete('pane', 'split', '--')).sort(), [
      '--current', '--cwd', '--direction', '--env', '--focus', '--host', '--json', '--label', '--no-focus', '--pane', '--ratio', '--socket', '--ssh-command',
    ]);
  });

  it('completes live pane and workspace ids from the server', async () => {
    assert.deepEqual(await complete('pane', 'get', '--socket', server.socketPath, ''), ['1-1', '1-2']);
    assert.deepEqual(await complete('workspace', 'focus', '--socket', server.socketPath, ''), ['1']);
    assert.deepEqual(await complete('pane', 'process-info', '--socket', server.socketPath, ''), ['1-1', '1-2']);
    assert.deepEqual(await complete('pane', 'split', '--socket', server.socketPath, ''), ['1-1', '1-2']);
    assert.deepEqual(await complete('tab', 'get', '--socket', server.socketPath, ''), ['w1:t1']);
    assert.deepEqual(await complete('workspace', 'report-metadata', '--socket', server.socketPath, ''), ['1']);
    assert.deepEqual(await complete('pane', 'get', '--socket', server.socketPath, '1-1', ''), [], 'one id is all a command takes');
  });

  it('refuses a shell it has no script for', async () => {
    await assert.rejects(run(process.execPath, [HERDR_BIN, 'completion', 'tcsh']), (error: { code: number; stderr: string }) =>
      error.code === 1 && /no completion for tcsh/.test(error.stderr));
  });
});
