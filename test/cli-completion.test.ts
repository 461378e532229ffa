/** `herdr completion`: the bash script loads and completes commands, flags and live ids through the real binary. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { AGENT_PROGRAMS } from '../src/protocol/agent-kinds.js';
import { AGENT_STATES, AGENT_STATUSES, SPLIT_DIRECTIONS } from '../src/protocol/enums.js';
import { CLI_READ_SOURCES } from '../src/cli/commands/read-options.js';
import { HERDR_BIN, REPO_ROOT, type TestServer, startServer, tempDir } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

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

  it('completes the running agents\' names where an agent is named', async () => {
    for (const name of ['alpha', 'apex', 'bravo']) await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name, timeout_ms: 10_000 });
    const socket = ['--socket', server.socketPath];
    // `herdr agent prompt a<TAB>`: the agents whose name starts so.
    assert.deepEqual((await complete('agent', 'prompt', ...socket, 'a')).sort(), ['alpha', 'apex']);
    assert.deepEqual(await complete('agent', 'prompt', ...socket, '--wait', 'b'), ['bravo'], 'after a flag without a value too');
    for (const command of ['get', 'read', 'wait', 'focus', 'explain', 'rename', 'queue', 'send-keys']) {
      assert.deepEqual((await complete('agent', command, ...socket, '')).sort(), ['alpha', 'apex', 'bravo'], `agent ${command}`);
    }
    assert.deepEqual(await complete('agent', 'prompt', ...socket, 'alpha', ''), [], 'the prompt\'s text is not an agent');
    assert.deepEqual(await complete('agent', 'start', ...socket, ''), [], 'a new agent\'s name is not one that runs');
    // An event rule's agents too; none without a server.
    assert.deepEqual((await complete('rules', 'add', ...socket, '--queue', 'a')).sort(), ['alpha', 'apex']);
    assert.deepEqual(await complete('agent', 'get', '--socket', join(tempDir(), 'none.sock'), ''), []);
  });

  it('completes a flag\'s values from the protocol\'s own lists', async () => {
    // The values the flag's parser takes.
    assert.deepEqual(await complete('pane', 'read', '1-1', '--source', ''), [...CLI_READ_SOURCES]);
    assert.deepEqual(await complete('agent', 'read', 'alpha', '--source', 're'), CLI_READ_SOURCES.filter((source) => source.startsWith('re')));
    assert.deepEqual(await complete('pane', 'split', '--direction', ''), [...SPLIT_DIRECTIONS]);
    assert.deepEqual(await complete('pane', 'read', '--format', ''), ['text', 'ansi']);
    assert.deepEqual(await complete('wait', 'agent-state', '1-1', '--state', ''), [...AGENT_STATES]);
    // The ones it leaves to the server, by what the value is.
    assert.deepEqual(await complete('agent', 'prompt', 'alpha', 'hi', '--wait', '--until', ''), [...AGENT_STATUSES]);
    assert.deepEqual(await complete('agent', 'wait', 'alpha', '--until', 'd'), ['done']);
    assert.deepEqual(await complete('agent', 'start', 'x', '--kind', ''), Object.keys(AGENT_PROGRAMS));
    assert.deepEqual(await complete('agent', 'start', 'x', '--kind', 'co'), Object.keys(AGENT_PROGRAMS).filter((kind) => kind.startsWith('co')));
    assert.deepEqual(await complete('rules', 'add', '--on-agent', ''), ['idle', 'working', 'blocked', 'done']);
    // A flag whose value is free text offers nothing (bash falls back to file names).
    assert.deepEqual(await complete('agent', 'prompt', 'alpha', 'hi', '--key', ''), []);
  });

  it('refuses a shell it has no script for', async () => {
    await assert.rejects(run(process.execPath, [HERDR_BIN, 'completion', 'tcsh']), (error: { code: number; stderr: string }) =>
      error.code === 1 && /no completion for tcsh/.test(error.stderr));
  });
});
