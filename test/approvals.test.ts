/**
 * The approval inbox (docs/protocol.md §13.6). Menus read off the real agent CLIs'
 * screens kept as fixtures (test/fixtures/screens), in-process; then against a real
 * server: blocked agents listed with their menus, an answer typed only while the same
 * question is on the screen (else a clear error and nothing typed), numbered menus by
 * number, arrow-selected ones by the arrows from the marker.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findMenu, keysFor } from '../src/protocol/menu.js';
import type { Approval } from '../src/protocol/methods/approvals.js';
import { REPO_ROOT, type TestServer, codeOf, eventually, herdrCli, readUntil, startServer } from './helpers/server.js';
import { CliTerminal } from './helpers/terminal.js';

const SCREENS = join(REPO_ROOT, 'test', 'fixtures', 'screens');
const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
const ARROW_MENU = join(REPO_ROOT, 'dist', 'test', 'fixtures', 'arrow-menu.js');

function screen(name: string): string[] {
  return readFileSync(join(SCREENS, name), 'utf8').split('\n');
}

describe('menus read off real agents\' screens', () => {
  const cases: Array<{ file: string; kind: 'numbered' | 'arrows'; labels: string[]; selected: number; question?: RegExp }> = [
    { file: 'claude-folder-trust.blocked.txt', kind: 'numbered', labels: ['Yes, I trust this folder', 'No, exit'], selected: 0, question: /Is this a project you created or one you trust\?/ },
    {
      file: 'claude-theme.blocked.txt',
      kind: 'numbered',
      labels: ['Auto (match terminal)', 'Dark mode ✔', 'Light mode', 'Dark mode (colorblind-friendly)', 'Light mode (colorblind-friendly)', 'Dark mode (ANSI colors only)', 'Light mode (ANSI colors only)'],
      selected: 1,
    },
    { file: 'gemini-folder-trust.blocked.txt', kind: 'numbered', labels: ['Trust folder (gemini)', 'Trust parent folder (capwork)', 'Don\'t trust'], selected: 0, question: /^Do you trust the files in this folder\?$/ },
    { file: 'gemini-auth.blocked.txt', kind: 'numbered', labels: ['Sign in with Google', 'Use Gemini API Key', 'Vertex AI'], selected: 0, question: /^How would you like to authenticate/ },
    { file: 'copilot-folder-trust.blocked.txt', kind: 'numbered', labels: ['Yes', 'Yes, and remember this folder for future sessions', 'No (Esc)'], selected: 0, question: /^Do you trust the files in this folder\?$/ },
    { file: 'codex-sign-in.blocked.txt', kind: 'numbered', labels: ['Sign in with ChatGPT', 'Sign in with Device Code', 'Sign in another way'], selected: 0 },
    { file: 'qodercli-folder-trust.blocked.txt', kind: 'numbered', labels: ['Trust folder', 'Don\'t trust and exit'], selected: 0, question: /^Do you trust the files in this folder\?$/ },
    {
      file: 'cline-provider.blocked.txt',
      kind: 'arrows',
      labels: ['Cline Usage-Billing (OAuth)', 'ClinePass (OAuth)', 'OpenAI ChatGPT Subscription (OAuth)', 'DeepSeek', 'Anthropic', 'OpenRouter', 'Ollama', 'AWS Bedrock'],
      selected: 0,
    },
    { file: 'cline-thinking-level.blocked.txt', kind: 'arrows', labels: ['Off No extended thinking', 'Low Minimal reasoning', 'Medium Balanced reasoning', 'High Deep reasoning', 'Extra High Maximum reasoning'], selected: 2 },
    { file: 'omp-setup-theme.blocked.txt', kind: 'arrows', labels: ['Match terminal', 'Titanium', 'Light', 'Colorblind colors', 'ANSI-safe', 'Browse all…'], selected: 1 },
  ];
  for (const expected of cases) {
    it(expected.file, () => {
      const menu = findMenu(screen(expected.file));
      assert.ok(menu, 'a menu is found');
      assert.equal(menu.kind, expected.kind);
      assert.deepEqual(menu.options.map((option) => option.label.replace(/\s+/g, ' ')), expected.labels.map((label) => label.replace(/\s+/g, ' ')));
      assert.deepEqual(menu.options.map((option) => option.key), expected.labels.map((_, index) => String(index + 1)));
      assert.equal(menu.selected, expected.selected);
      if (expected.question) assert.match(menu.question ?? '', expected.question);
    });
  }

  it('finds no menu in a numbered list without a marker or a question (gemini\'s tips), nor on a prompt', () => {
    for (const file of ['gemini-prompt.idle.txt', 'gemini-api-key.blocked.txt', 'claude-prompt.idle.txt', 'amp-log-in.blocked.txt', 'opencode-prompt.idle.txt']) {
      assert.equal(findMenu(screen(file)), undefined, file);
    }
  });

  it('picks an option with the arrows from the marker and Enter, or by its number and Enter without one', () => {
    const theme = findMenu(screen('claude-theme.blocked.txt'));
    assert.ok(theme);
    assert.deepEqual(keysFor(theme, '5'), ['Down', 'Down', 'Down', 'Enter']);
    assert.deepEqual(keysFor(theme, '1'), ['Up', 'Enter']);
    assert.deepEqual(keysFor(theme, '2'), ['Enter']);
    assert.equal(keysFor(theme, '8'), undefined);
    const plain = findMenu(['Do you want to proceed?', ' 1. Yes', ' 2. No']);
    assert.ok(plain);
    assert.equal(plain.selected, -1);
    assert.deepEqual(keysFor(plain, '2'), ['2', 'Enter']);
  });
});

describe('approvals.list and approvals.answer', () => {
  let server: TestServer;
  let asker: { paneId: string; stableId: string };
  let chooser: { paneId: string; stableId: string };

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '100' } });
    const started = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'asker', timeout_ms: 10_000 });
    asker = { paneId: started.agent.pane_id, stableId: started.agent.terminal_id };
    await server.call('agent.prompt', { target: 'asker', text: 'ask 50', wait: { until: ['blocked'], timeout_ms: 10_000 } });
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: [process.execPath, ARROW_MENU, 'Anthropic', 'OpenRouter', 'Ollama'] });
    const { pane } = await server.call('pane.get', { pane_id: `${workspace.workspace_id}-1` });
    chooser = { paneId: pane.pane_id, stableId: pane.stable_id };
    await eventually(async () => (await server.call('pane.get', { pane_id: chooser.paneId })).pane.agent_state === 'blocked', 'the arrow menu blocked');
    // A plain shell is never in the inbox.
    await server.call('workspace.create', { cwd: server.dir });
  });
  after(async () => server?.stop());

  async function approvals(): Promise<Approval[]> {
    return (await server.call('approvals.list', {})).approvals;
  }

  it('lists every blocked agent with its question and its menu, oldest first', async () => {
    const list = await approvals();
    assert.deepEqual(list.map((entry) => entry.stable_id), [asker.stableId, chooser.stableId]);
    const [ask, choose] = list;
    assert.equal(ask?.question, 'Do you want to proceed?');
    assert.equal(ask?.menu, 'numbered');
    assert.deepEqual(ask?.options, [{ key: '1', label: 'Yes' }, { key: '2', label: 'No' }]);
    assert.equal(ask?.selected, undefined);
    assert.equal(ask?.name, 'asker');
    assert.match(ask?.question_hash ?? '', /^[0-9a-f]{16}$/);
    assert.equal(choose?.question, 'Which provider should I use?');
    assert.equal(choose?.menu, 'arrows');
    assert.deepEqual(choose?.options.map((option) => option.label), ['Anthropic', 'OpenRouter', 'Ollama']);
    assert.equal(choose?.selected, '1');
    assert.ok((ask?.since ?? 0) <= (choose?.since ?? 0));
    assert.deepEqual((await server.call('approvals.list', { agent: 'arrow-menu' })).approvals.map((entry) => entry.stable_id), [chooser.stableId]);
  });

  it('types nothing for a stale hash, an option the menu lacks, or a pane that is not blocked; the right answer types its number and Enter', async () => {
    const [ask] = await approvals();
    assert.ok(ask);
    const before = (await server.call('pane.read', { pane_id: asker.paneId, source: 'visible' })).read.text;
    assert.equal(await codeOf(server.call('approvals.answer', { pane_id: asker.paneId, option: '1', question_hash: '0000000000000000' })), 'approval_changed');
    assert.equal(await codeOf(server.call('approvals.answer', { pane_id: asker.paneId, option: '3', question_hash: ask.question_hash })), 'approval_option_not_found');
    assert.equal(await codeOf(server.call('approvals.answer', { pane_id: '3-1', option: '1', question_hash: ask.question_hash })), 'approval_not_blocked');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await server.call('pane.read', { pane_id: asker.paneId, source: 'visible' })).read.text, before, 'nothing was typed');
    // Positive control on the same path: the right hash and an option it has (a menu without a marker: its number and Enter).
    const answered = await server.call('approvals.answer', { pane_id: asker.stableId, option: '1', question_hash: ask.question_hash });
    assert.deepEqual(answered, { type: 'approval_answered', pane_id: asker.paneId, option: '1', label: 'Yes', keys: ['1', 'Enter'] });
    await readUntil(server, asker.paneId, (text) => /you chose 1/.test(text));
    assert.deepEqual((await approvals()).map((entry) => entry.stable_id), [chooser.stableId], 'it left the inbox');
  });

  it('answers an arrow-selected menu with the arrows from its marker, and refuses the same answer twice', async () => {
    const choose = (await approvals()).find((entry) => entry.stable_id === chooser.stableId);
    assert.ok(choose);
    const answered = await server.call('approvals.answer', { pane_id: chooser.paneId, option: '3', question_hash: choose.question_hash });
    assert.deepEqual(answered.keys, ['Down', 'Down', 'Enter']);
    await readUntil(server, chooser.paneId, (text) => /chose Ollama/.test(text), { source: 'visible' });
    await eventually(async () => (await server.call('pane.get', { pane_id: chooser.paneId })).pane.agent_state === 'idle', 'idle after the answer');
    assert.equal(await codeOf(server.call('approvals.answer', { pane_id: chooser.paneId, option: '3', question_hash: choose.question_hash })), 'approval_not_blocked');
    assert.deepEqual(await approvals(), []);
  });
});

describe('herdr inbox', () => {
  let server: TestServer;
  let cli: ReturnType<typeof herdrCli>;

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '50' } });
    cli = herdrCli(server);
    for (const name of ['alpha', 'bravo']) {
      await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name, timeout_ms: 10_000 });
      await server.call('agent.prompt', { target: name, text: `ask 20 ${name}`, wait: { until: ['blocked'], timeout_ms: 10_000 } });
    }
  });
  after(async () => server?.stop());

  it('--once prints every blocked agent, the longest-waiting first, with its question and options', async () => {
    const lines = (await cli('inbox', '--once')).stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^PANE +AGENT +WAITING +QUESTION +OPTIONS$/);
    assert.match(lines[1] ?? '', /^w1:p1 +alpha · fake-agent +\d+s +Do you want to proceed\? +1 Yes · 2 No$/);
    assert.match(lines[2] ?? '', /^w2:p1 +bravo · fake-agent /);
    assert.equal(lines.length, 3);
  });

  it('--json gives scripts the hash, and `inbox answer` types only with the hash still right', async () => {
    const entries = (await cli('inbox', '--json')).stdout.trim().split('\n').map((line) => JSON.parse(line) as Approval & { id: string; host: string });
    assert.deepEqual(entries.map((entry) => [entry.host, entry.id, entry.name]), [['local', 'w1:p1', 'alpha'], ['local', 'w2:p1', 'bravo']]);
    const [alpha] = entries;
    assert.ok(alpha);
    const stale = await cli('inbox', 'answer', 'w1:p1', '1', '--hash', '0123456789abcdef').then(
      () => assert.fail('a stale hash must fail'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /"code":"approval_changed"/);
    const answered = JSON.parse((await cli('inbox', 'answer', 'w1:p1', '2', '--hash', alpha.question_hash)).stdout) as { result: { label: string; keys: string[] } };
    assert.deepEqual([answered.result.label, answered.result.keys], ['No', ['2', 'Enter']]);
    await readUntil(server, '1-1', (text) => /you chose 2/.test(text));
  });

  it('live: shows the waiting agents and answers the selected one with a digit', async () => {
    const terminal = new CliTerminal(['inbox', '--socket', server.socketPath], { cwd: server.dir, cols: 100, rows: 12 });
    try {
      await terminal.screenMatches(/herdr inbox · 1 waiting/);
      await terminal.screenMatches(/^▶ w2:p1 +bravo · fake-agent +\d+s +Do you want to proceed\?$/m);
      await terminal.screenMatches(/^ +1 Yes +2 No$/m);
      terminal.type('1');
      await terminal.screenMatches(/w2:p1: answered 1\. Yes/);
      await terminal.screenMatches(/herdr inbox · 0 waiting/);
      await readUntil(server, '2-1', (text) => /you chose 1/.test(text));
      // A new question shows up by itself (an event, then the list read again).
      await server.call('agent.prompt', { target: 'alpha', text: 'ask 20 again' });
      await terminal.screenMatches(/^▶ w1:p1 +alpha/m);
      terminal.type('q');
      assert.equal(await terminal.exited, 0);
    } finally {
      terminal.kill();
    }
  });

  it('answer-all answers every matching agent by label, and skips (typing nothing) where the label is not offered', async () => {
    await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'charlie', timeout_ms: 10_000 });
    await server.call('agent.prompt', { target: 'charlie', text: 'ask 20 charlie', wait: { until: ['blocked'], timeout_ms: 10_000 } });
    await eventually(async () => (await server.call('approvals.list', {})).approvals.length === 2, 'alpha and charlie waiting');
    type AnswerAll = { result: { answered: Array<{ stable_id: string; label: string }>; skipped: Array<{ stable_id: string; code: string }> } };
    const none = JSON.parse((await cli('inbox', 'answer-all', '--label', 'maybe')).stdout) as AnswerAll;
    assert.deepEqual(none.result.answered, []);
    assert.deepEqual(none.result.skipped.map((entry) => entry.code), ['approval_option_not_found', 'approval_option_not_found']);
    assert.equal((await server.call('approvals.list', {})).approvals.length, 2, 'nothing was typed');
    const other = JSON.parse((await cli('inbox', 'answer-all', '--label', 'YES', '--question', 'no such question')).stdout) as AnswerAll;
    assert.deepEqual([other.result.answered, other.result.skipped], [[], []], 'a question filter that matches none answers none');
    const all = JSON.parse((await cli('inbox', 'answer-all', '--label', 'YES', '--question', 'proceed')).stdout) as AnswerAll;
    assert.deepEqual(all.result.answered.map((entry) => [entry.stable_id, entry.label]).sort(), [['w1:p1', 'Yes'], ['w3:p1', 'Yes']]);
    await readUntil(server, '1-1', (text) => /you chose 1/.test(text.slice(text.lastIndexOf('ask 20 again'))));
    await readUntil(server, '3-1', (text) => /you chose 1/.test(text));
    const usage = await cli('inbox', 'answer-all', '--option', '1', '--label', 'yes').then(
      () => assert.fail('both flags must be refused'),
      (error: { code: number }) => error,
    );
    assert.equal(usage.code, 2);
  });
});

describe('an agent that asks at startup', () => {
  it('is refused by agent.start as agent_blocked, and is in the inbox with its menu', async () => {
    const server = await startServer({ env: { PATH: `${join(REPO_ROOT, 'test', 'fixtures', 'bin')}:${process.env.PATH ?? ''}` } });
    try {
      // The fake claude (test/fixtures/bin) asks for permission at once.
      assert.equal(await codeOf(server.call('agent.start', { kind: 'claude', cwd: server.dir, timeout_ms: 10_000 })), 'agent_blocked');
      const [waiting] = (await server.call('approvals.list', {})).approvals;
      assert.equal(waiting?.agent, 'claude');
      assert.deepEqual(waiting?.options.map((option) => option.label), ['Yes', 'No']);
      assert.equal(waiting?.selected, '1');
      const answered = await server.call('approvals.answer', { pane_id: waiting?.stable_id ?? '', option: '2', question_hash: waiting?.question_hash ?? '' });
      assert.deepEqual(answered.keys, ['Down', 'Enter']);
    } finally {
      await server.stop();
    }
  });
});
