/**
 * What the `herdr` CLI prints, for a person and for a program (docs/protocol.md §11, "What
 * gets printed"): the real binary against a real server. In a PTY of the test's own (a person
 * at a terminal) lists are aligned tables, get commands `key: value` lines, actions one
 * sentence, a server error one line, and panes are named by their stable ids; on a pipe (a
 * program), or with `--json` anywhere, the answer is the line the server wrote, byte for byte.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HERDR_BIN, REPO_ROOT, type TestServer, eventually, rawExchange, sleep, startServer, tempDir } from './helpers/server.js';
import { git, gitWorks } from './helpers/git.js';
import { CliTerminal } from './helpers/terminal.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

interface AtTerminal {
  code: number;
  /** The screen as the person sees it, trailing blank rows dropped. */
  screen: string;
  /** Every byte the CLI wrote (stdout and stderr: both are the terminal), `\r\n` as `\n`. */
  output: string;
}

/** Runs `herdr ARGS…` against `server` (HERDR_SOCKET_PATH) in a PTY (stdout and stderr a terminal) until it exits. */
async function atTerminal(server: TestServer, args: string[], options: { cols?: number; env?: Record<string, string> } = {}): Promise<AtTerminal> {
  const terminal = new CliTerminal(args, {
    cwd: server.dir,
    cols: options.cols ?? 160,
    rows: 50,
    env: { HERDR_SOCKET_PATH: server.socketPath, HERDR_PANE_ID: '', ...options.env },
  });
  try {
    const code = await terminal.exited;
    // The last bytes may come after the exit: wait until the output stops changing.
    let seen = -1;
    await eventually(async () => {
      await sleep(50);
      const settled = terminal.output.length === seen;
      seen = terminal.output.length;
      return settled;
    }, 'the CLI output to settle', 3000);
    const screen = (await terminal.screen()).replace(/\n+$/, '');
    return { code, screen, output: terminal.output.replace(/\r\n/g, '\n') };
  } finally {
    terminal.kill();
  }
}

/** Runs `herdr ARGS… --socket S` with pipes (a program reading it). */
function piped(server: TestServer, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.HERDR_PANE_ID;
  return new Promise((resolve) => {
    execFile(process.execPath, [HERDR_BIN, ...args, '--socket', server.socketPath], { cwd: server.dir, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The line the server itself answers the CLI's request with (same id, same params), with its newline. */
async function serverLine(server: TestServer, id: string, method: string, params: object): Promise<string> {
  const { lines } = await rawExchange(server.socketPath, `${JSON.stringify({ id, method, params })}\n`);
  assert.equal(lines.length, 1);
  return `${lines[0]}\n`;
}

/** The screen's rows with their trailing blanks. */
const rows = (screen: string) => screen.split('\n');

describe('herdr CLI output, for a person and for a program', () => {
  let server: TestServer;
  const scratch = tempDir('herdr-cli-output-');

  before(async () => {
    server = await startServer({ workers: 1, serverArgs: ['--worktrees-dir', join(scratch, 'worktrees')] });
    // Workspace w1 keeps only its second pane: its positional id is 1-1, its stable id w1:p2.
    await server.call('workspace.create', { cwd: server.dir, label: 'alpha' });
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
    await server.call('pane.close', { pane_id: '1-1' });
    assert.equal((await server.call('pane.get', { pane_id: '1-1' })).pane.stable_id, 'w1:p2');
    // Workspace w2: a fake agent named asker.
    await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'asker', timeout_ms: 10_000 });
  });
  after(() => server.stop());

  describe('at a terminal', () => {
    it('lists are aligned tables, panes named by stable id, the focused row marked', async () => {
      const panes = await atTerminal(server, ['pane', 'list']);
      assert.equal(panes.code, 0);
      const paneRows = rows(panes.screen);
      assert.equal(paneRows.length, 3, panes.screen);
      assert.match(paneRows[0] ?? '', /^ {3}PANE +AGENT +STATUS +FOR +DIRECTORY +LABEL$/, panes.screen);
      assert.match(paneRows[1] ?? '', /^\* {2}w1:p2 +- +- +\/\S+$/, 'the focused shell pane: no agent, no status');
      assert.match(paneRows[2] ?? '', /^ {3}w2:p1 +fake-agent +idle +\d+s +\/\S+$/);
      // Aligned: every column starts where its heading does.
      for (const heading of ['AGENT', 'STATUS', 'DIRECTORY']) {
        const at = paneRows[0]?.indexOf(heading);
        assert.ok(paneRows.slice(1).every((row) => row[(at ?? 0) - 1] === ' ' && row[at ?? 0] !== ' '), `${heading} aligned:\n${panes.screen}`);
      }
      // The positional ids renumber when a pane closes: a person never sees them.
      assert.doesNotMatch(panes.screen, /\b\d+-\d+\b/);
      assert.doesNotMatch(panes.output, /[{}"]/, 'no JSON');

      const workspaces = await atTerminal(server, ['workspace', 'list']);
      assert.deepEqual(rows(workspaces.screen), [
        '   WORKSPACE  LABEL  TABS  PANES  STATUS',
        '*  w1         alpha  1     1      -',
        `   w2         asker  1     1      idle`,
      ]);

      const agents = await atTerminal(server, ['agent', 'list']);
      assert.match(rows(agents.screen)[0] ?? '', /^AGENT +KIND +PANE +STATUS +FOR +QUEUE +DIRECTORY +MESSAGE$/, 'no row focused: no mark column');
      assert.match(rows(agents.screen)[1] ?? '', /^asker +fake-agent +w2:p1 +idle +\d+s +- +\/\S+$/);

      const tabs = await atTerminal(server, ['tab', 'list']);
      assert.match(tabs.screen, /^ {3}TAB {4}LABEL +PANES +STATUS\n\* {2}w1:t1 .* 1 +-\n {3}w2:t1 .* 1 +idle$/);
    });

    it('a table fits the terminal: each line cut to its width', async () => {
      const narrow = await atTerminal(server, ['pane', 'list'], { cols: 30 });
      assert.equal(narrow.code, 0);
      const lines = narrow.output.trimEnd().split('\n');
      assert.equal(lines.length, 3);
      for (const line of lines) assert.ok([...line].length <= 30, `cut to 30: ${JSON.stringify(line)}`);
      assert.ok(lines.some((line) => line.endsWith('…')), narrow.output);
    });

    it('get commands are a few key: value lines, by stable id even when the positional one was typed', async () => {
      const pane = await atTerminal(server, ['pane', 'get', '1-1']);
      assert.equal(pane.code, 0);
      // A shell's window title or last exit code may come between; these are always there, in this order.
      assert.match(pane.screen, /^pane: {6}w1:p2 \(focused\)\ntab: {7}w1:t1\n(.*\n)*directory: \/\S+\n(.*\n)*size: {6}120×40, pid \d+$/);
      assert.doesNotMatch(pane.screen, /1-1/);

      const current = await atTerminal(server, ['pane', 'current'], { env: { HERDR_PANE_ID: 'w2:p1' } });
      assert.match(current.screen, /^pane: {6}w2:p1\ntab: {7}w2:t1\nagent: {5}fake-agent, idle for \d+s\n/);

      const agent = await atTerminal(server, ['agent', 'get', 'asker']);
      assert.match(agent.screen, /^agent: {5}asker \(fake-agent\)\npane: {6}w2:p1\nstatus: {4}idle for \d+s\ndirectory: \/\S+\n(.*\n)*instance: {2}[0-9a-f-]{36}$/);

      const workspace = await atTerminal(server, ['workspace', 'get', 'w1']);
      assert.equal(workspace.screen, 'workspace: w1 "alpha" (focused)\nstatus:    -\ntabs:      1, w1:t1 active\npanes:     1');

      const tab = await atTerminal(server, ['tab', 'get', 'w2:t1']);
      assert.match(tab.screen, /^tab: {4}w2:t1 "[^"]+"\npanes: {2}1\nstatus: idle$/);
    });

    it('actions say in a sentence what they did', async () => {
      const first = await atTerminal(server, ['agent', 'prompt', 'asker', 'work 6000 first']);
      assert.deepEqual([first.code, first.screen], [0, 'prompt sent to asker as turn t1']);
      const second = await atTerminal(server, ['agent', 'prompt', 'asker', 'second']);
      assert.equal(second.screen, 'prompt queued as turn t2 for asker, next in line');
      const third = await atTerminal(server, ['agent', 'prompt', 'asker', 'third']);
      assert.equal(third.screen, 'prompt queued as turn t3 for asker, 1 turn ahead of it');

      const queue = await atTerminal(server, ['agent', 'queue', 'asker']);
      assert.match(queue.screen, /^TURN {2}WAITING {2}KEY {2}PROMPT\nt2 {4}\d+s +- {4}second\nt3 {4}\d+s +- {4}third$/);
      const cancelled = await atTerminal(server, ['agent', 'cancel', 't2']);
      assert.equal(cancelled.screen, 'took back turn t2: it will not be written to w2:p1');
      assert.equal((await atTerminal(server, ['agent', 'cancel', 't3'])).code, 0);
      assert.equal((await atTerminal(server, ['agent', 'queue', 'asker'])).screen, 'nothing queued for asker');

      // --wait: its status line on stderr is drawn over and cleared; what stays is how the turn ended.
      const waited = await atTerminal(server, ['agent', 'prompt', 'asker', 'work 200 fourth', '--wait', '--timeout', '30000']);
      assert.equal(waited.code, 0, waited.output);
      assert.match(waited.screen, /^turn t4 for asker finished in \d+\.\d s; asker is done \(its answer: herdr agent read asker\)$/);
      const turn = await atTerminal(server, ['agent', 'turn', 't4']);
      // --wait gives the prompt a client key of its own (a retry after Ctrl-C names the same turn).
      assert.match(turn.screen, /^turn: {4}t4, finished: done\npane: {4}w2:p1\nprompt: {2}"work 200 fourth"\nkey: {5}cli-[0-9a-f]{16}\ncreated: \d+s ago\ntook: {4}\d+\.\d s$/);

      const started = await atTerminal(server, ['agent', 'start', 'helper', '--', FAKE_AGENT]);
      assert.deepEqual([started.code, started.screen], [0, 'started agent helper (fake-agent) in pane w3:p1, idle']);
      assert.equal((await atTerminal(server, ['agent', 'rename', 'helper', 'aide'])).screen, 'the agent in pane w3:p1 is named aide');
      assert.equal((await atTerminal(server, ['agent', 'wait', 'aide'])).screen, 'aide is idle');

      const created = await atTerminal(server, ['workspace', 'create', '--label', 'beta']);
      assert.deepEqual([created.code, created.screen], [0, 'created workspace w4 "beta" with pane w4:p1, focused']);
      assert.equal((await atTerminal(server, ['pane', 'split', 'w4:p1', '--direction', 'down', '--no-focus'])).screen, 'new pane w4:p2 below');
      assert.equal((await atTerminal(server, ['tab', 'create', '--workspace', 'w4', '--label', 'logs'])).screen, 'created tab w4:t2 "logs" with pane w4:p3');
      assert.equal((await atTerminal(server, ['pane', 'rename', 'w4:p2', 'api', 'tests'])).screen, 'pane w4:p2 is labelled "api tests"');
      assert.equal((await atTerminal(server, ['workspace', 'rename', 'w4', 'gamma'])).screen, 'workspace w4 is labelled "gamma"');
      assert.equal((await atTerminal(server, ['workspace', 'focus', 'w1'])).screen, 'focused workspace w1 "alpha"');
      assert.equal((await atTerminal(server, ['workspace', 'close', 'w4'])).screen, 'closed workspace w4 and ended its panes');
      assert.equal((await atTerminal(server, ['pane', 'close', 'w3:p1'])).screen, 'closed pane w3:p1 and ended its processes');
    });

    it('a server error is one line, its message and code; --json prints the error answer whole; exit 1 either way', async () => {
      const error = await atTerminal(server, ['pane', 'get', 'w9:p9']);
      assert.equal(error.code, 1);
      assert.match(error.screen, /^herdr: .*w9:p9.* \(pane_not_found\)$/);
      assert.doesNotMatch(error.output, /[{}]/);

      const raw = await serverLine(server, 'cli:pane:get', 'pane.get', { pane_id: 'w9:p9' });
      const json = await atTerminal(server, ['pane', 'get', 'w9:p9', '--json']);
      assert.deepEqual([json.code, json.output], [1, raw]);
      // Not a server error: one line, as before.
      const usage = await atTerminal(server, ['pane', 'get']);
      assert.deepEqual([usage.code, usage.screen], [2, "error: missing required argument 'id'\n(add --help for usage)"]);
    });

    it('--json prints the envelope a pipe gets, byte for byte, on a terminal too', async () => {
      for (const [args, id, method, params] of [
        [['pane', 'list', '--json'], 'cli:pane:list', 'pane.list', {}],
        [['agent', 'get', '--json', 'asker'], 'cli:agent:get', 'agent.get', { target: 'asker' }],
        [['workspace', 'list', '--json'], 'cli:workspace:list', 'workspace.list', {}],
      ] as const) {
        const before = await serverLine(server, id, method, params);
        const shown = await atTerminal(server, [...args]);
        assert.equal(shown.code, 0);
        assert.equal(shown.output, before, args.join(' '));
      }
    });
  });

  describe('on a pipe (a program reads it)', () => {
    it('prints the server\'s answer line byte for byte, as before', async () => {
      const cases: Array<[string[], string, string, object]> = [
        [['workspace', 'list'], 'cli:workspace:list', 'workspace.list', {}],
        [['workspace', 'get', 'w1'], 'cli:workspace:get', 'workspace.get', { workspace_id: 'w1' }],
        [['pane', 'list'], 'cli:pane:list', 'pane.list', {}],
        [['pane', 'get', '1-1'], 'cli:pane:get', 'pane.get', { pane_id: '1-1' }],
        [['tab', 'list'], 'cli:tab:list', 'tab.list', {}],
        [['tab', 'get', 'w1:t1'], 'cli:tab:get', 'tab.get', { tab_id: 'w1:t1' }],
        [['agent', 'list'], 'cli:agent:list', 'agent.list', {}],
        [['agent', 'get', 'asker'], 'cli:agent:get', 'agent.get', { target: 'asker' }],
        [['agent', 'queue', 'asker'], 'cli:agent:queue', 'agent.queue.list', { target: 'asker' }],
        [['agent', 'turn', 't1'], 'cli:agent:turn', 'agent.turn.get', { turn_id: 't1' }],
      ];
      for (const [args, id, method, params] of cases) {
        // The answer the server gives the same request just before and just after (an agent's clock may move between).
        const before = await serverLine(server, id, method, params);
        const ran = await piped(server, args);
        const afterwards = await serverLine(server, id, method, params);
        assert.equal(ran.code, 0, `${args.join(' ')}: ${ran.stderr}`);
        assert.ok(ran.stdout === before || ran.stdout === afterwards, `${args.join(' ')} printed the server's line:\n${ran.stdout}\n${before}`);
        assert.equal(ran.stderr, '');
      }
    });

    it('actions print the whole {id, result} answer as one JSON line', async () => {
      const created = await piped(server, ['workspace', 'create', '--label', 'piped', '--no-focus']);
      assert.equal(created.code, 0, created.stderr);
      const answer = JSON.parse(created.stdout) as { id: string; result: { type: string; workspace: { stable_id: string } } };
      assert.deepEqual([answer.id, answer.result.type], ['cli:workspace:create', 'workspace_info']);
      assert.equal(created.stdout, `${JSON.stringify(answer)}\n`, 'one line, as the server wrote it');

      const prompted = await piped(server, ['agent', 'prompt', 'asker', 'work 100 piped']);
      const turn = JSON.parse(prompted.stdout) as { id: string; result: { type: string; turn: { turn_id: string } } };
      assert.deepEqual([turn.id, turn.result.type], ['cli:agent:prompt', 'agent_prompted']);
      assert.equal(prompted.stdout.split('\n').length, 2);
      await piped(server, ['workspace', 'close', answer.result.workspace.stable_id]);
    });

    it('a server error is the raw error answer on stderr, exit 1', async () => {
      const raw = await serverLine(server, 'cli:pane:get', 'pane.get', { pane_id: 'w9:p9' });
      const ran = await piped(server, ['pane', 'get', 'w9:p9']);
      assert.deepEqual([ran.code, ran.stdout, ran.stderr], [1, '', raw]);
    });
  });

  describe('worktrees', { skip: gitWorks() ? false : 'git is not installed' }, () => {
    it('a table of worktrees with the workspace open in each, and a sentence for the new one', async () => {
      const repo = join(scratch, 'app');
      mkdirSync(repo, { recursive: true });
      git(repo, 'init', '-q', '-b', 'main');
      writeFileSync(join(repo, 'README'), 'hello\n');
      git(repo, 'add', 'README');
      git(repo, 'commit', '-q', '-m', 'init');
      const root = realpathSync(repo);

      const listed = await atTerminal(server, ['worktree', 'list', '--cwd', root]);
      assert.deepEqual(rows(listed.screen), [`worktrees of app (${root})`, 'BRANCH  WORKSPACE  PATH' + ' '.repeat(root.length - 2) + 'NOTE', `main    -          ${root}  main checkout`]);

      const created = await atTerminal(server, ['worktree', 'create', '--cwd', root, '--branch', 'fix-1']);
      assert.equal(created.code, 0, created.output);
      const made = /^created worktree (\S+) on branch fix-1: workspace (w\d+) "[^"]*" with pane (w\d+):p1$/.exec(created.screen);
      assert.ok(made, created.screen);
      assert.equal(made[3], made[2]);
      const again = await atTerminal(server, ['worktree', 'list', '--cwd', root]);
      assert.match(again.screen, new RegExp(`^fix-1 +${made[2]} +${made[1]?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'));
    });
  });
});

