/**
 * herdr's current CLI grammar beside herdr 0.2.0's (docs/protocol.md §11.3), through the
 * real binary against a real server: the argv forms CLI-wrapping integrations use, what
 * lands on stdout and stderr, the exit codes, and where the two grammars conflict.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HERDR_BIN, type TestServer, readUntil, startServer, statsUntil, tempDir } from './helpers/server.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** Extra environment (HERDR_PANE_ID, HERDR_SOCKET_PATH). */
  env?: Record<string, string>;
  /** Appended as `--socket PATH`; false: none (the environment decides). */
  socket?: string | false;
}

/** Runs `herdr ARGS… --socket PATH` and resolves with its exit code and output, whatever the code. */
function run(server: TestServer, args: string[], options: RunOptions = {}): Promise<Ran> {
  const socket = options.socket ?? server.socketPath;
  const argv = [HERDR_BIN, ...args, ...(socket === false ? [] : ['--socket', socket])];
  const env = { ...process.env, ...options.env };
  if (!options.env?.HERDR_PANE_ID) delete env.HERDR_PANE_ID;
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: server.dir, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The one JSON line a command printed. */
const json = (text: string) => JSON.parse(text) as { id: string; result?: Record<string, any>; error?: { code: string; message: string } };

describe('herdr\'s current CLI grammar', () => {
  let server: TestServer;
  const herdr = (...args: string[]) => run(server, args);
  /** The first workspace's panes, by stable id (compact ids move as panes close). */
  let first: string;

  before(async () => {
    server = await startServer({ workers: 1 });
    const created = json((await herdr('workspace', 'create', '--env', 'GRAMMAR=on', '--env=SECOND=two', '--label', 'one')).stdout);
    first = `${created.result?.workspace.stable_id}:p1`;
  });
  after(() => server.stop());

  describe('usage errors and patterns, as a person meets them', () => {
    it('a usage error says the one thing wrong and where help is, not the whole help', async () => {
      const ran = await herdr('pane', 'read');
      assert.equal(ran.code, 2);
      assert.deepEqual(ran.stderr.trim().split('\n'), ["error: missing required argument 'id'", '(add --help for usage)']);
    });

    it('send-keys names the key meant by a common spelling, and sends nothing', async () => {
      for (const [typed, meant] of [['Ctrl-C', 'C-c'], ['^D', 'C-d'], ['Alt-x', 'M-x'], ['Return', 'Enter']] as const) {
        const ran = await herdr('pane', 'send-keys', first, typed);
        assert.equal(ran.code, 2, typed);
        assert.match(ran.stderr, new RegExp(`${typed.replace(/[\^]/g, '\\$&')} is not a key: did you mean ${meant}\\?`));
      }
      // The positive control: the names it suggests are taken.
      assert.equal((await herdr('pane', 'send-keys', first, 'C-c')).code, 0);
    });

    it('wait output and pane wait-output take a pattern the same way: --regex PATTERN', async () => {
      for (const args of [['wait', 'output'], ['pane', 'wait-output']]) {
        const bad = await herdr(...args, first, '--regex', '(', '--timeout', '1000');
        assert.equal(bad.code, 1, `${args.join(' ')}: ${bad.stderr}`);
        assert.equal(json(bad.stderr).error?.code, 'invalid_regex');
        await herdr('pane', 'send-text', first, 'echo pattern-$((40+2))\r');
        const good = await herdr(...args, first, '--regex', 'pattern-4[2]', '--timeout', '10000');
        assert.equal(good.code, 0, good.stderr);
      }
      // herdr 0.2.0's form still means the same.
      assert.equal((await herdr('wait', 'output', first, '--match', 'pattern-4[2]', '--regex', '--timeout', '10000')).code, 0);
    });
  });

  describe('herdr status', () => {
    it('reports a running server on the 0.2.0 socket, exit 0', async () => {
      const ran = await herdr('status', '--json');
      assert.equal(ran.code, 0, ran.stderr);
      const { client, server: answered } = JSON.parse(ran.stdout);
      assert.equal(client.protocol, 0);
      assert.equal(typeof client.version, 'string');
      assert.deepEqual(
        { status: answered.status, running: answered.running, protocol: answered.protocol, compatible: answered.compatible, socket: answered.socket },
        { status: 'running', running: true, protocol: 0, compatible: true, socket: server.socketPath },
      );
      assert.equal(answered.version, client.version);
      assert.equal(typeof answered.capabilities.live_handoff, 'boolean');
    });

    it('expects herdr\'s current protocol on the current socket', async () => {
      const current = join(server.dir, 'herdr-current.sock');
      const ran = await run(server, ['status', 'server', '--json'], { socket: false, env: { HERDR_SOCKET_PATH: current } });
      assert.equal(ran.code, 0, ran.stderr);
      const answered = JSON.parse(ran.stdout);
      assert.deepEqual([answered.protocol, answered.compatible, answered.socket], [22, true, current]);
    });

    it('says "not running" and still exits 0 when nothing listens', async () => {
      const socket = join(tempDir(), 'herdr.sock');
      const ran = await run(server, ['status', '--json'], { socket });
      assert.equal(ran.code, 0, ran.stderr);
      assert.deepEqual(JSON.parse(ran.stdout).server, {
        status: 'not_running', running: false, version: null, protocol: null, capabilities: null, compatible: null, socket,
      });
      const text = await run(server, ['status'], { socket });
      assert.match(text.stdout, /^server:\n {2}status: not running\n {2}socket: /m);
    });

    it('prints the client alone without a server, and refuses another scope (exit 2)', async () => {
      const client = await run(server, ['status', 'client', '--json'], { socket: join(tempDir(), 'none.sock') });
      assert.deepEqual(Object.keys(JSON.parse(client.stdout)).sort(), ['binary', 'protocol', 'version']);
      assert.equal((await herdr('status', 'everything')).code, 2);
    });
  });

  describe('workspace create', () => {
    it('focuses unless --no-focus (0.2.0\'s default), takes --focus and passes --env to the pane', async () => {
      const unfocused = json((await herdr('workspace', 'create', '--no-focus')).stdout).result?.workspace;
      assert.equal(unfocused.focused, false);
      const focused = json((await herdr('workspace', 'create', '--focus')).stdout).result?.workspace;
      assert.equal(focused.focused, true);
      const byDefault = json((await herdr('workspace', 'create')).stdout).result?.workspace;
      assert.equal(byDefault.focused, true);
      for (const made of [unfocused, focused, byDefault]) assert.equal((await herdr('workspace', 'close', made.stable_id)).code, 0);

      assert.equal((await herdr('pane', 'run', first, 'echo "env:$GRAMMAR:$SECOND"')).stdout, '');
      const matched = await herdr('pane', 'wait-output', first, '--regex=^env:on:two$', '--timeout', '10000');
      assert.equal(matched.code, 0, matched.stderr);
      const answer = json(matched.stdout);
      assert.equal(answer.id, 'cli:pane:wait-output');
      assert.equal(answer.result?.type, 'output_matched');
      assert.equal(answer.result?.matched_line, 'env:on:two');
    });
  });

  describe('pane read', () => {
    it('takes its flags before or after the id, and --flag=value', async () => {
      await readUntil(server, first, (text) => /^env:on:two$/m.test(text));
      const after = await herdr('pane', 'read', first, '--source', 'recent', '--lines', '50');
      const before = await herdr('pane', 'read', '--source=recent', '--lines=50', first);
      assert.equal(after.code, 0, after.stderr);
      assert.match(after.stdout, /^env:on:two$/m);
      assert.equal(before.stdout, after.stdout);
      const visible = await herdr('pane', 'read', '--source=visible', first);
      assert.match(visible.stdout, /^env:on:two$/m);
    });

    it('keeps colour escapes with --raw, --ansi or --format ansi, and strips them by default', async () => {
      await herdr('pane', 'run', first, "printf '\\033[31mred\\033[0m\\n'");
      await readUntil(server, first, (text) => /^red$/m.test(text));
      assert.doesNotMatch((await herdr('pane', 'read', first)).stdout, /\x1b\[/);
      for (const flag of [['--raw'], ['--ansi'], ['--format', 'ansi']]) {
        assert.match((await herdr('pane', 'read', first, ...flag)).stdout, /\x1b\[[0-9;]*m/, flag.join(' '));
      }
    });

    it('reads recent-unwrapped (either spelling) and detection; an unknown source is a usage error', async () => {
      for (const source of ['recent-unwrapped', 'recent_unwrapped', 'detection']) {
        const ran = await herdr('pane', 'read', first, '--source', source);
        assert.deepEqual([ran.code, ran.stderr], [0, ''], source);
      }
      assert.equal((await herdr('pane', 'read', first, '--source', 'everything')).code, 2);
    });
  });

  describe('pane wait-output and wait output', () => {
    it('needs exactly one of --match and --regex (exit 2)', async () => {
      assert.equal((await herdr('pane', 'wait-output', first)).code, 2);
      assert.equal((await herdr('pane', 'wait-output', first, '--match', 'a', '--regex', 'b')).code, 2);
    });

    it('prints a timeout as the error answer on stderr, exit 1', async () => {
      const ran = await herdr('pane', 'wait-output', first, '--match=never-printed-here', '--timeout=200');
      assert.equal(ran.code, 1);
      assert.equal(ran.stdout, '');
      assert.deepEqual([json(ran.stderr).id, json(ran.stderr).error?.code], ['cli:pane:wait-output', 'timeout']);
    });

    it('waits without --timeout until the line comes', async () => {
      const waiting = herdr('pane', 'wait-output', first, '--match', 'late-line-7');
      await statsUntil(server, (stats) => stats.waits === 1, 'the wait to be registered');
      await herdr('pane', 'run', first, "printf 'late-line-%s\\n' 7");
      const ran = await waiting;
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(json(ran.stdout).result?.matched_line, 'late-line-7');
    });

    it('keeps 0.2.0\'s wait output, where --regex is a switch on --match', async () => {
      const ran = await herdr('wait', 'output', first, '--match', '^late-line-[0-9]$', '--regex', '--timeout', '5000');
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(json(ran.stdout).id, 'cli:wait:output');
    });
  });

  describe('pane split and pane current', () => {
    it('splits the pane named by ID (0.2.0), --pane or --current, else the focused one', async () => {
      const byId = json((await herdr('pane', 'split', first, '--direction', 'right', '--no-focus')).stdout).result?.pane;
      assert.equal(byId.focused, false);
      const byFlag = json((await herdr('pane', 'split', '--pane', byId.stable_id, '--direction=down', '--no-focus')).stdout).result?.pane;
      const byCaller = await run(server, ['pane', 'split', '--current', '--direction', 'down', '--env', 'X=1'], { env: { HERDR_PANE_ID: byFlag.stable_id } });
      assert.equal(byCaller.code, 0, byCaller.stderr);
      const fromCaller = json(byCaller.stdout).result?.pane;
      assert.equal(fromCaller.focused, true, '0.2.0\'s default: the new pane is focused');
      const byFocus = json((await herdr('pane', 'split', '--direction', 'right', '--focus')).stdout).result?.pane;
      assert.equal(byFocus.focused, true);
      for (const pane of [byId, byFlag, fromCaller, byFocus]) assert.equal((await herdr('pane', 'close', pane.stable_id)).code, 0);
    });

    it('refuses a pane named twice and a ratio outside (0, 1) (exit 2); --ratio splits at that share', async () => {
      assert.equal((await herdr('pane', 'split', first, '--pane', first, '--direction', 'right')).code, 2);
      for (const bad of ['1.5', '0', 'half']) assert.equal((await herdr('pane', 'split', first, '--direction', 'right', '--ratio', bad)).code, 2, bad);
      assert.equal(json((await herdr('pane', 'list')).stdout).result?.panes.length, 1, 'nothing was split');
      const split = json((await herdr('pane', 'split', first, '--direction', 'down', '--ratio', '0.3')).stdout).result?.pane;
      const layout = json((await herdr('layout', 'export', '--pane', first)).stdout).result?.layout;
      assert.deepEqual([layout.root.type, layout.root.direction, layout.root.ratio], ['split', 'down', 0.3]);
      assert.equal((await herdr('pane', 'close', split.stable_id)).code, 0);
    });

    it('pane current: $HERDR_PANE_ID, --pane, else the focused pane, as herdr\'s pane.current answer', async () => {
      const fromEnv = json((await run(server, ['pane', 'current'], { env: { HERDR_PANE_ID: first } })).stdout);
      assert.deepEqual([fromEnv.id, fromEnv.result?.type, fromEnv.result?.pane.stable_id], ['cli:pane:current', 'pane_current', first]);
      assert.equal(json((await herdr('pane', 'current', '--pane', first)).stdout).result?.pane.stable_id, first);
      const focused = json((await herdr('pane', 'current')).stdout);
      assert.equal(focused.result?.pane.focused, true);
      assert.equal(focused.result?.pane.stable_id, first);
    });
  });

  describe('ids and dialects', () => {
    it('passes ids on as typed, and prints what the current socket answers (stable ids)', async () => {
      const compact = json((await herdr('pane', 'get', '1-1')).stdout).result?.pane;
      assert.deepEqual([compact.pane_id, compact.stable_id], ['1-1', first]);
      const current = await run(server, ['pane', 'list'], { socket: join(server.dir, 'herdr-current.sock') });
      assert.equal(current.code, 0, current.stderr);
      assert.deepEqual(json(current.stdout).result?.panes.map((pane: { pane_id: string }) => pane.pane_id), [first]);
      // Each socket's own answer to workspace.create, printed as it came.
      const made = json((await run(server, ['workspace', 'create', '--no-focus'], { socket: join(server.dir, 'herdr-current.sock') })).stdout);
      assert.equal(made.result?.type, 'workspace_created');
      assert.equal((await herdr('workspace', 'close', made.result?.workspace.workspace_id)).code, 0);
    });
  });

  describe('herdr api', () => {
    it('api snapshot prints the session.snapshot answer', async () => {
      const answer = json((await herdr('api', 'snapshot')).stdout);
      assert.equal(answer.id, 'cli:api:snapshot');
      assert.equal(answer.result?.type, 'session_snapshot');
      assert.equal(answer.result?.snapshot.panes.length, 1);
    });

    it('api schema [--json] [--output PATH] is herdr schema', async () => {
      const schema = (await run(server, ['schema'], { socket: false })).stdout;
      assert.equal((await run(server, ['api', 'schema', '--json'], { socket: false })).stdout, schema);
      const file = join(tempDir(), 'schema.json');
      const written = await run(server, ['api', 'schema', '--output', file], { socket: false });
      assert.deepEqual([written.code, written.stdout], [0, '']);
      assert.equal(readFileSync(file, 'utf8'), schema);
    });
  });

  describe('herdr agent', () => {
    it('agent read takes herdr\'s sources, agent explain takes --json: the server\'s answers, whole', async () => {
      const read = await herdr('agent', 'read', first, '--source', 'recent-unwrapped', '--lines', '5');
      assert.equal(read.code, 1);
      assert.equal(json(read.stderr).id, 'cli:agent:read');
      const explain = await herdr('agent', 'explain', first, '--json');
      assert.equal(explain.code, 1, 'a pane without an agent: the server says so (not a usage error)');
      assert.equal(json(explain.stderr).error?.code, 'agent_not_found');
    });

    it('agent prompt: --until and --timeout need --wait (exit 2)', async () => {
      assert.equal((await herdr('agent', 'prompt', first, 'hello', '--until', 'done')).code, 2);
      assert.equal((await herdr('agent', 'prompt', first, 'hello', '--timeout', '1000')).code, 2);
    });
  });

  describe('herdr tab', () => {
    it('list, create, get, rename, focus and close print the answers whole', async () => {
      const listed = json((await herdr('tab', 'list')).stdout);
      assert.deepEqual([listed.id, listed.result?.type], ['cli:tab:list', 'tab_list']);
      const workspace = first.split(':')[0] ?? '';
      const made = await herdr('tab', 'create', '--workspace', workspace, '--label', 'tests', '--env', 'T=1');
      assert.equal(made.code, 0, made.stderr);
      const created = json(made.stdout);
      assert.deepEqual([created.id, created.result?.type, created.result?.tab.label, created.result?.tab.focused], ['cli:tab:create', 'tab_created', 'tests', false]);
      assert.equal(typeof created.result?.root_pane.pane_id, 'string');
      const tab = created.result?.tab.tab_id as string;
      assert.equal(json((await herdr('tab', 'get', tab)).stdout).result?.tab.tab_id, tab);
      assert.equal(json((await herdr('tab', 'rename', tab, 'api', 'tests')).stdout).result?.tab.label, 'api tests');
      assert.equal(json((await herdr('tab', 'focus', tab)).stdout).result?.tab.focused, true);
      assert.equal(json((await herdr('tab', 'list', '--workspace', workspace)).stdout).result?.tabs.length, 2);
      assert.deepEqual(json((await herdr('tab', 'close', tab)).stdout).result, { type: 'ok' });
      const missing = await herdr('tab', 'get', tab);
      assert.equal(missing.code, 1);
      assert.equal(missing.stdout, '');
      assert.equal(json(missing.stderr).id, 'cli:tab:get');
    });

    it('tab create focuses only with --focus (herdr\'s default), in the active workspace without --workspace', async () => {
      const made = json((await herdr('tab', 'create', '--focus')).stdout).result;
      assert.equal(made?.tab.focused, true);
      assert.equal(made?.tab.workspace_id, json((await herdr('workspace', 'get', '1')).stdout).result?.workspace.workspace_id);
      assert.equal((await herdr('tab', 'close', made?.tab.tab_id)).code, 0);
    });
  });
});
