/**
 * `herdr web` (docs/web.md) end to end: the real CLI serving its page against
 * a real server. Its gate is checked with plain HTTP and a WebSocket client;
 * the page itself in headless Chromium driven by playwright-core: tiles come
 * and go with panes, what is typed reaches the program, a blocked agent
 * moves to the top with its menu, and every action is an API call.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumMissing, launchChromium } from '../harness/browser.js';
import { type TestSshd, sshdMissing, startSshd } from '../harness/sshd.js';
import { type WebProcess, startWebProcess } from '../harness/web.js';
import { AGENT_PROGRAMS } from '../src/protocol/agent-kinds.js';
import type { ServerMessage } from '../src/web/wire.js';
import '../harness/page-probe.js';
import { HERDR_BIN, REPO_ROOT, type TestServer, eventually, newWorkspace, promptShown, readUntil, startServer, tempDir } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
const FAKE_BIN = join(REPO_ROOT, 'test', 'fixtures', 'bin');

/** A WebSocket to herdr web with the given headers; resolves with it open, or rejects with the HTTP status it got. */
function openSocket(web: WebProcess, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${web.origin.replace('http', 'ws')}/ws`, { headers });
    // Messages may come in the same read as the handshake: collected from the start.
    messagesOf(socket);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

const collected = new WeakMap<WebSocket, ServerMessage[]>();

/** A socket's JSON messages, all of them since it was made. */
function messagesOf(socket: WebSocket): ServerMessage[] {
  let messages = collected.get(socket);
  if (messages) return messages;
  messages = [];
  collected.set(socket, messages);
  const into = messages;
  socket.on('message', (data, isBinary) => {
    if (!isBinary) into.push(JSON.parse(data.toString()) as ServerMessage);
  });
  return messages;
}

async function answerTo(socket: WebSocket, messages: ServerMessage[], id: number, method: string, params: object): Promise<Extract<ServerMessage, { t: 'answer' }>> {
  socket.send(JSON.stringify({ t: 'call', id, method, params }));
  return eventually(() => messages.find((message): message is Extract<ServerMessage, { t: 'answer' }> => message.t === 'answer' && message.id === id), `answer ${id}`);
}

describe('herdr web: the gate', () => {
  let server: TestServer;
  let web: WebProcess;
  let readOnly: WebProcess;
  const cookie = () => `herdr_web_${new URL(web.origin).port}=${web.token}`;

  before(async () => {
    server = await startServer();
    web = await startWebProcess(server.socketPath);
    readOnly = await startWebProcess(server.socketPath, ['--read-only']);
  });
  after(async () => {
    await web.stop();
    await readOnly.stop();
    await server.stop();
  });

  it('listens on 127.0.0.1 and prints a URL with a fresh random token', async () => {
    const url = new URL(web.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.match(web.token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(web.token, readOnly.token);
  });

  it('answers 401 to every request without the token, trades the token for a cookie, and serves the page with a strict CSP', async () => {
    for (const path of ['/', '/app.js', '/app.css', '/ws', '/nothing']) {
      assert.equal((await fetch(`${web.origin}${path}`)).status, 401, path);
    }
    assert.equal((await fetch(`${web.origin}/?token=wrong`)).status, 401);
    assert.equal((await fetch(`${web.origin}/`, { headers: { cookie: `herdr_web_${new URL(web.origin).port}=${web.token.slice(1)}x` } })).status, 401);
    const first = await fetch(web.url, { redirect: 'manual' });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), '/', 'the token leaves the address bar');
    assert.match(first.headers.get('set-cookie') ?? '', new RegExp(`^herdr_web_\\d+=${web.token}; HttpOnly; SameSite=Strict; Path=/$`));
    const page = await fetch(`${web.origin}/`, { headers: { cookie: cookie() } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    assert.match(await page.text(), /<script type="module" src="\/app.js">/);
    const script = await fetch(`${web.origin}/app.js`, { headers: { cookie: cookie() } });
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.ok((await script.text()).length > 100_000, 'xterm.js is bundled in, not fetched from a CDN');
  });

  it('refuses another Host (a DNS-rebinding page) and a WebSocket from another Origin', async () => {
    const port = new URL(web.origin).port;
    const rebound = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${web.origin.replace('http', 'ws')}/ws`, { headers: { cookie: cookie(), host: `evil.example:${port}`, origin: `http://evil.example:${port}` } });
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    });
    assert.equal(rebound, 403);
    await assert.rejects(openSocket(web, { cookie: cookie(), origin: 'http://evil.example' }), /HTTP 403/);
    await assert.rejects(openSocket(web, { origin: web.origin }), /HTTP 401/);
    const socket = await openSocket(web, { cookie: cookie(), origin: web.origin });
    socket.close();
  });

  it('forwards the page\'s calls to the server, refuses methods it does not use, and shuts out garbage', async () => {
    const { paneId } = await newWorkspace(server);
    const socket = await openSocket(web, { cookie: cookie(), origin: web.origin });
    const messages = messagesOf(socket);
    const hello = await eventually(() => messages.find((message) => message.t === 'hello'), 'hello');
    assert.deepEqual(hello.t === 'hello' && [hello.hosts, hello.readOnly, hello.fps], [['local'], false, 10]);
    const fleet = await eventually(() => messages.find((message) => message.t === 'fleet' && message.rows.length === 1), 'the fleet with the pane');
    assert.equal(fleet.t === 'fleet' && fleet.rows[0]?.pane, 'w1:p1');
    const listed = await answerTo(socket, messages, 1, 'pane.get', { pane_id: paneId });
    assert.equal((listed.result as { pane: { stable_id: string } }).pane.stable_id, 'w1:p1');
    const refused = await answerTo(socket, messages, 2, 'server.stop', {});
    assert.equal(refused.error?.code, 'method_not_allowed');
    const invalid = await answerTo(socket, messages, 3, 'pane.send_text', { pane_id: paneId });
    assert.equal(invalid.error?.code, 'invalid_request', 'the server checks the params, as for any client');
    assert.match(invalid.error?.message ?? '', /text/);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('{"t":"call","id":"x"}');
    assert.equal(await closed, 1003);
    assert.equal((await server.call('ping', {})).type, 'pong', 'the server did not notice');
  });

  it('--read-only forwards reads and refuses every change, typing nothing', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const socket = await openSocket(readOnly, { cookie: `herdr_web_${new URL(readOnly.origin).port}=${readOnly.token}`, origin: readOnly.origin });
    const messages = messagesOf(socket);
    const hello = await eventually(() => messages.find((message) => message.t === 'hello'), 'hello');
    assert.ok(hello.t === 'hello' && hello.readOnly && !hello.methods.includes('pane.send_text'));
    const typed = await answerTo(socket, messages, 1, 'pane.send_text', { pane_id: paneId, text: 'echo read-only-breach\r' });
    assert.equal(typed.error?.code, 'method_not_allowed');
    assert.match(typed.error?.message ?? '', /read-only/);
    assert.equal((await answerTo(socket, messages, 2, 'pane.read', { pane_id: paneId, source: 'visible' })).error, undefined);
    const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent' });
    assert.doesNotMatch(read.text, /read-only-breach/);
    socket.close();
  });

  it('says so when its port is taken, and exits 1', () => {
    const second = spawnSync(process.execPath, [HERDR_BIN, 'web', '--socket', server.socketPath, '--port', new URL(web.origin).port], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(second.status, 1);
    assert.match(second.stderr, /^herdr: 127\.0\.0\.1:\d+ is taken \(another herdr web\?\): choose another with --port/);
  });

  it('warns when told to listen beyond loopback, and there takes any address as Host but no name', async () => {
    const wide = await startWebProcess(server.socketPath, ['--listen', '0.0.0.0']);
    try {
      await eventually(() => /warning: listening on 0\.0\.0\.0, not loopback/.test(wide.stderr()), 'the warning');
      assert.equal(new URL(wide.url).hostname, '0.0.0.0');
      const port = new URL(wide.origin).port;
      const address = Object.values(networkInterfaces()).flat().find((candidate) => candidate?.family === 'IPv4' && !candidate.internal)?.address;
      if (address) assert.equal((await fetch(`http://${address}:${port}/?token=${wide.token}`, { redirect: 'manual' })).status, 303, `by ${address}`);
      // fetch() may not set Host (a forbidden header): node:http may.
      const byName = await new Promise<number>((resolve, reject) =>
        httpGet({ host: '127.0.0.1', port, path: `/?token=${wide.token}`, headers: { host: `rebound.example:${port}` } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        }).on('error', reject),
      );
      assert.equal(byName, 403);
    } finally {
      await wide.stop();
    }
  });
});

const noBrowser = chromiumMissing();

describe('herdr web in a real browser', { skip: noBrowser }, () => {
  let server: TestServer;
  let web: WebProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    server = await startServer({
      env: { FAKE_AGENT_WORK_MS: '200', PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}` },
      serverArgs: ['--worktrees-dir', join(tempDir('herdr-web-worktrees-'), 'worktrees')],
    });
    web = await startWebProcess(server.socketPath);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await browser?.close();
    await web?.stop();
    await server?.stop();
    assert.deepEqual(pageErrors, [], 'the page threw nothing');
  });

  const order = () => page.evaluate(() => window.herdrWeb.order());
  const tileText = (key: string) => page.evaluate((k) => window.herdrWeb.tileLines(k).join('\n'), key);
  const paneText = () => page.evaluate(() => window.herdrWeb.paneLines().join('\n'));

  it('without the token the page is 401; the printed URL opens the fleet', async () => {
    const refused = await page.goto(web.origin);
    assert.equal(refused?.status(), 401);
    const opened = await page.goto(web.url);
    assert.equal(opened?.status(), 200);
    assert.equal(page.url(), `${web.origin}/`, 'the token is gone from the address bar');
    await page.waitForSelector('#empty:not([hidden])');
  });

  it('a tile appears for a new pane, shows its screen live, and vanishes when it closes', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const key = 'local/w1:p1';
    await eventually(async () => (await order()).includes(key), 'the tile');
    await server.call('pane.send_text', { pane_id: paneId, text: 'echo tile-$((6*7))\r' });
    await eventually(async () => /tile-42/.test(await tileText(key)), 'the output in the tile');
    await server.call('pane.close', { pane_id: paneId });
    await eventually(async () => !(await order()).includes(key), 'the tile gone');
  });

  it('typing into a pane opened large reaches its program; back to the grid leaves it running', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const stableId = (await server.call('pane.get', { pane_id: paneId })).pane.stable_id;
    const key = `local/${stableId}`;
    await page.locator(`.tile[data-key="${key}"]`).click();
    await page.waitForSelector('#pane-view:not([hidden])');
    await eventually(async () => /[$#] $/m.test(await paneText()), 'the prompt in the large pane');
    await page.keyboard.type('echo typed-$((6*7))');
    await page.keyboard.press('Enter');
    await readUntil(server, paneId, (text) => /^typed-42$/m.test(text));
    await eventually(async () => /^typed-42$/m.test(await paneText()), 'the echo in the large pane');
    // A paste goes in as the terminal pastes: here a shell without bracketed paste gets the text as is.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'echo pasted-$((7*6))\n');
      document.querySelector('#pane-terminal textarea')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await readUntil(server, paneId, (text) => /^pasted-42$/m.test(text));
    // Fit to window: the pane takes the size the window has room for (pane.resize), and the terminal follows.
    const before = (await server.call('pane.get', { pane_id: paneId })).pane;
    await page.locator('#fit').click();
    const fitted = await eventually(async () => {
      const { pane } = await server.call('pane.get', { pane_id: paneId });
      return pane.cols !== before.cols && pane.rows !== before.rows ? pane : undefined;
    }, 'the pane resized to the window');
    assert.ok(fitted.cols > 100 && fitted.rows > 20, `${fitted.cols}×${fitted.rows}`);
    await eventually(async () => (await page.evaluate(() => window.herdrWeb.paneLines().length)) === fitted.rows, 'the large terminal at the new size');
    await page.locator('#back').click();
    await page.waitForSelector('#pane-view', { state: 'hidden' });
    assert.equal(page.url(), `${web.origin}/#`);
    assert.equal((await server.call('pane.get', { pane_id: paneId })).pane.stable_id, stableId, 'still running');
  });

  it('a blocked agent moves to the top with its question; its menu is answered with a click', async () => {
    const started = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'asker', timeout_ms: 10_000 });
    const key = `local/${started.agent.terminal_id}`;
    await newWorkspace(server);
    await eventually(async () => (await order()).includes(key), 'the agent\'s tile');
    assert.notEqual((await order())[0], key, 'an idle agent is not first');
    // Prompted from the page (agent.prompt), as a person would.
    await page.locator(`.tile[data-key="${key}"]`).click();
    await page.fill('#prompt-text', 'ask 100');
    await page.locator('#prompt-form button').click();
    await eventually(async () => (await order())[0] === key, 'the blocked agent first', 10_000);
    await page.waitForSelector('#pane-options .option');
    // The question comes with the pane's info, read when the state changed.
    await eventually(async () => (await page.textContent('#pane-question')) === 'Do you want to proceed?', 'the question above the pane');
    await page.locator('#back').click();
    const tile = page.locator(`.tile[data-key="${key}"]`);
    assert.equal(await tile.getAttribute('data-status'), 'blocked');
    assert.equal(await tile.locator('.question').textContent(), 'Do you want to proceed?');
    await eventually(async () => (await tile.locator('.option').allTextContents()).join('|') === '1. Yes|2. No', 'the menu as buttons');
    // Answered through the approval inbox: no marker on the fake agent's menu, so its number and Enter.
    await tile.locator('.option', { hasText: '1. Yes' }).click();
    // A tile is only a glance (pane.stream with look: false): the finished turn stays `done` for whoever looks next.
    await eventually(async () => (await tile.getAttribute('data-status')) === 'done', 'the tile done');
    // Tile output is paced (10 frames a second), the fleet's rows are not: the text may come a moment after the state.
    await eventually(async () => /you chose 1/.test(await tileText(key)), 'the answer in the tile');
    assert.equal((await server.call('pane.get', { pane_id: started.agent.pane_id })).pane.agent_status, 'done');
  });

  it('a tile counts its agent\'s queued prompts, and the bar tells the event rules\' firings', async () => {
    const started = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'queuer', timeout_ms: 10_000 });
    const key = `local/${started.agent.terminal_id}`;
    const tile = page.locator(`.tile[data-key="${key}"]`);
    await eventually(async () => (await order()).includes(key), 'the agent\'s tile');
    const { rule } = await server.call('rules.add', { name: 'web-seen', trigger: { type: 'agent_status', status: 'done', agent: 'queuer' }, action: { type: 'prompt', agent: 'nobody', text: 'x' } });
    await server.call('agent.prompt', { target: 'queuer', text: 'work 1500 long' });
    await server.call('agent.prompt', { target: 'queuer', text: 'work 10 next' });
    await eventually(async () => (await tile.locator('.queued').textContent()) === '1 queued', 'the count on the tile');
    await eventually(async () => (await tile.locator('.queued').textContent()) === '', 'the count gone once it is written', 10_000);
    await eventually(async () => /^rules fired \d+ · last web-seen prompt failed \d+s ago$/.test((await page.textContent('#rules')) ?? ''), 'the firing in the bar', 10_000);
    await server.call('rules.remove', { rule_id: rule.rule_id });
    await server.call('pane.close', { pane_id: started.agent.pane_id });
  });

  it('starts an agent in a new git worktree from the dialog, and reads a real menu off its screen', async () => {
    const repo = tempDir('herdr-web-repo-');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README'), 'x\n');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    await page.locator('#start-agent').click();
    await page.fill('input[name="kind"]', 'claude');
    await page.fill('input[name="cwd"]', repo);
    await page.fill('input[name="name"]', 'builder');
    await page.check('input[name="worktree"]');
    await page.fill('input[name="branch"]', 'web-feature');
    await page.locator('#start-submit').click();
    await page.waitForSelector('#start-dialog', { state: 'hidden' });
    const { worktrees } = await server.call('worktree.list', { cwd: repo });
    assert.ok(worktrees.some((worktree) => worktree.branch === 'web-feature'), 'the worktree was made');
    // The fake claude (test/fixtures/bin) asks for permission at once: detected by its screen.
    const agents = await eventually(async () => (await server.call('agent.list', {})).agents.find((agent) => agent.name === 'builder' && agent.agent_status === 'blocked'), 'builder blocked');
    const key = `local/${agents.terminal_id}`;
    await eventually(async () => (await order())[0] === key, 'the new blocked agent first');
    assert.match(agents.cwd ?? '', /web-feature|worktrees/);
    const tile = page.locator(`.tile[data-key="${key}"]`);
    await eventually(async () => (await tile.locator('.option').allTextContents()).join('|') === '1. Yes|2. No', 'claude\'s ❯ menu as buttons');
  });

  it('filters by state, agent and text', async () => {
    const all = (await order()).length;
    await page.locator('.chip[data-status="blocked"]').click();
    await eventually(async () => (await order()).length === 1, 'only the blocked one');
    await page.locator('.chip[data-status="blocked"]').click();
    await page.selectOption('#agent-filter', 'fake-agent');
    await eventually(async () => (await order()).length === 1, 'only the fake agent');
    await page.selectOption('#agent-filter', '');
    await page.fill('#text-filter', 'web-feature');
    await eventually(async () => (await order()).length === 1, 'only the worktree\'s pane');
    await page.fill('#text-filter', '');
    await eventually(async () => (await order()).length === all, 'all again');
  });

  it('closes a pane from the page', async () => {
    const before = await order();
    const { paneId } = await newWorkspace(server);
    const key = `local/${(await server.call('pane.get', { pane_id: paneId })).pane.stable_id}`;
    await eventually(async () => (await order()).length === before.length + 1, 'the new tile');
    await page.locator(`.tile[data-key="${key}"]`).click();
    await page.locator('#close-pane').click();
    await eventually(async () => !(await order()).includes(key), 'the tile gone');
    await page.waitForSelector('#pane-view', { state: 'hidden' });
  });

  it('streams only the tiles on screen', async () => {
    for (let i = 0; i < 24; i++) await newWorkspace(server);
    const count = await eventually(async () => {
      const shown = (await order()).length;
      return shown >= 28 && (await page.evaluate(() => window.herdrWeb.streaming())) > 0 ? shown : undefined;
    }, 'every tile, some streaming');
    await page.setViewportSize({ width: 900, height: 500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const streaming = await eventually(async () => {
      const now = await page.evaluate(() => window.herdrWeb.streaming());
      return now < count / 2 ? now : undefined;
    }, 'tiles off screen stopped streaming', 10_000);
    assert.ok(streaming > 0, 'the visible ones stream');
    const last = (await order()).at(-1) ?? '';
    await page.locator(`.tile[data-key="${last}"]`).scrollIntoViewIfNeeded();
    await eventually(async () => page.evaluate((k) => document.querySelector(`.tile[data-key="${k}"]`) !== null && window.herdrWeb.tileLines(k).some((line) => /[$#]/.test(line)), last), 'the last tile streams once on screen');
    const shots = tempDir('herdr-web-shots-');
    mkdirSync(shots, { recursive: true });
    const png = await page.screenshot({ path: join(shots, 'grid.png') });
    assert.ok(png.length > 10_000 && png.subarray(1, 4).toString() === 'PNG', 'a screenshot of the grid');
  });
});

describe('herdr web: telling panes apart, reading them, starting where asked', { skip: noBrowser }, () => {
  let server: TestServer;
  let web: WebProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** Where herdr web runs: a directory of its own, neither the server's nor this test's. */
  const webHome = realpathSync(tempDir('herdr-web-home-'));

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '200' } });
    // herdr web starts where it is run: here, its own directory (the harness spawns it from this process's).
    const testCwd = process.cwd();
    process.chdir(webHome);
    try {
      web = await startWebProcess(server.socketPath);
    } finally {
      process.chdir(testCwd);
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(web.url);
    await page.waitForSelector('#empty:not([hidden])');
  });
  after(async () => {
    await browser?.close();
    await web?.stop();
    await server?.stop();
    assert.deepEqual(pageErrors, [], 'the page threw nothing');
  });

  const tile = (stableId: string) => page.locator(`.tile[data-key="local/${stableId}"]`);
  const titleOf = async (stableId: string) => (await tile(stableId).locator('header .name').textContent()) ?? '';
  const stableIdOf = async (paneId: string) => (await server.call('pane.get', { pane_id: paneId })).pane.stable_id;

  it('titles each tile with its agent\'s name, the pane\'s stable id and the kind; a shell as `shell`', async () => {
    const alpha = (await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'alpha', timeout_ms: 10_000 })).agent;
    const beta = (await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'beta', timeout_ms: 10_000 })).agent;
    const shell = await stableIdOf((await newWorkspace(server)).paneId);
    // Two agents of one kind: told apart by name and id, in the words a person reads on the tile.
    await eventually(async () => (await titleOf(alpha.terminal_id)) === `alpha · ${alpha.terminal_id} · fake-agent`, 'alpha\'s title');
    await eventually(async () => (await titleOf(beta.terminal_id)) === `beta · ${beta.terminal_id} · fake-agent`, 'beta\'s title');
    await eventually(async () => (await titleOf(shell)) === `shell · ${shell}`, 'the shell\'s title');
    for (const id of [alpha.terminal_id, beta.terminal_id, shell]) assert.match(id, /^w\d+:p\d+$/, 'the stable id, never the positional one');
    assert.notEqual(alpha.terminal_id, beta.terminal_id);
    // The name is one a filter finds too.
    await page.fill('#text-filter', 'beta');
    await eventually(async () => (await page.evaluate(() => window.herdrWeb.order())).join() === `local/${beta.terminal_id}`, 'only beta');
    await page.fill('#text-filter', '');
  });

  it('a medium tile draws the pane\'s 120 columns across its width in text a person can read (1280 and 1440 px windows)', async () => {
    const { pane } = await server.call('pane.get', { pane_id: (await newWorkspace(server)).paneId });
    assert.equal(pane.cols, 120, 'the server\'s default pane width');
    const shell = pane.stable_id;
    assert.equal(await page.locator('#tile-size option:checked').textContent(), 'medium tiles', 'medium is the size a page opens with');
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      // Once the stream's first answer gave the tile the pane's size, and the tile was fitted to its width.
      const metrics = await eventually(async () => {
        const drawn = await page.evaluate((key) => window.herdrWeb.tileMetrics(key), `local/${shell}`);
        const tileWidth = await tile(shell).evaluate((node) => node.querySelector('.tile-screen')?.clientWidth ?? 0);
        return drawn && drawn.cols === pane.cols && drawn.width > 0 && Math.abs(drawn.width - tileWidth) <= 1 ? drawn : undefined;
      }, `the tile fitted at ${width} px`);
      assert.ok(metrics.glyphs, `${width} px: text is drawn as glyphs, not as a minimap's bars`);
      // 10 px rows and an 8 px font: the smallest monospace text that stays legible at 100 % zoom (docs/web.md).
      assert.ok(metrics.cellHeight >= 10, `${width} px: rows ${metrics.cellHeight.toFixed(2)} px high`);
      assert.ok(metrics.fontPx >= 8, `${width} px: font ${metrics.fontPx.toFixed(2)} px`);
      assert.ok(Math.abs(metrics.cellWidth * metrics.cols - metrics.width) < 0.5, 'the 120 columns fill the width');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a shell shows `printing` while it prints and `quiet` once it stops; opened large it has no prompt box, an agent has', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const shell = await stableIdOf(paneId);
    const state = tile(shell).locator('header .state');
    await tile(shell).scrollIntoViewIfNeeded();
    await eventually(async () => (await state.textContent()) === 'quiet', 'a shell at its prompt is quiet');
    await server.call('pane.send_text', { pane_id: paneId, text: 'while :; do echo x; sleep 0.5; done\r' });
    await eventually(async () => (await state.textContent()) === 'printing', 'the printing shell shows it');
    await eventually(async () => /^x$/m.test(await page.evaluate((key) => window.herdrWeb.tileLines(key).join('\n'), `local/${shell}`)), 'x in the tile');
    await server.call('pane.send_text', { pane_id: paneId, text: '\x03' });
    await eventually(async () => (await state.textContent()) === 'quiet', 'quiet once it stopped', 10_000);
    await eventually(async () => /^\d+s$/.test((await tile(shell).locator('header .age').textContent()) ?? ''), 'and for how long');

    await tile(shell).click();
    await page.waitForSelector('#pane-view:not([hidden])');
    assert.equal(await page.locator('#pane-title').textContent(), `shell · ${shell} · ${shortPathOf(server.dir)}`);
    assert.equal(await page.locator('#prompt-text').isVisible(), false, 'nothing to prompt in a shell');
    await page.locator('#back').click();
    const agent = (await server.call('agent.list', {})).agents.find((candidate) => candidate.name === 'alpha');
    assert.ok(agent);
    await tile(agent.terminal_id).click();
    await page.waitForSelector('#pane-view:not([hidden])');
    assert.equal(await page.locator('#prompt-text').isVisible(), true, 'an agent\'s pane has its prompt box');
    await page.locator('#back').click();
  });

  it('"+ agent" says where it starts, starts there (a relative path taken from herdr web\'s directory), and says why a directory will not do', async () => {
    const kinds = await page.locator('#agent-kinds option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    assert.deepEqual(kinds, Object.keys(AGENT_PROGRAMS), 'the kinds offered are the server\'s own table');
    await page.locator('#start-agent').click();
    // herdr web's own directory is the default, said on the page.
    assert.match((await page.textContent('#start-cwd-hint')) ?? '', new RegExp(`^Empty: ${escapeRegExp(webHome)}, where herdr web runs\\.`));

    // A directory that is not one: the server's reason, on the page; nothing starts.
    await page.fill('input[name="kind"]', FAKE_AGENT);
    await page.fill('input[name="cwd"]', '/nonexistent/herdr-web');
    await page.fill('input[name="name"]', 'nowhere');
    await page.locator('#start-submit').click();
    await eventually(async () => /\/nonexistent\/herdr-web does not exist or cannot be entered/.test((await page.textContent('#start-error')) ?? ''), 'the reason shown');
    assert.equal(await page.locator('#start-dialog').isVisible(), true, 'the dialog stays open to fix it');
    assert.equal((await server.call('agent.list', {})).agents.some((agent) => agent.name === 'nowhere'), false);

    // A relative path: taken from herdr web's directory (the server, elsewhere, has no such directory).
    mkdirSync(join(webHome, 'project', 'sub'), { recursive: true });
    await page.fill('input[name="cwd"]', 'project/./sub/..');
    await page.fill('input[name="name"]', 'placed');
    await page.locator('#start-submit').click();
    await page.waitForSelector('#start-dialog', { state: 'hidden' });
    const placed = await eventually(async () => (await server.call('agent.list', {})).agents.find((agent) => agent.name === 'placed'), 'placed started');
    assert.equal((await server.call('pane.get', { pane_id: placed.pane_id })).pane.cwd, join(webHome, 'project'));
    await eventually(async () => (await titleOf(placed.terminal_id)) === `placed · ${placed.terminal_id} · fake-agent`, 'its tile');

    // No directory: herdr web's own, not the server's.
    await page.locator('#start-agent').click();
    await page.fill('input[name="cwd"]', '');
    await page.fill('input[name="name"]', 'here');
    await page.locator('#start-submit').click();
    await page.waitForSelector('#start-dialog', { state: 'hidden' });
    const here = await eventually(async () => (await server.call('agent.list', {})).agents.find((agent) => agent.name === 'here'), 'here started');
    const hereCwd = (await server.call('pane.get', { pane_id: here.pane_id })).pane.cwd;
    assert.equal(hereCwd, webHome);
    assert.notEqual(hereCwd, server.dir);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The page's short form of a directory (src/web/page/format.ts shortPath), for the paths these tests make. */
function shortPathOf(path: string): string {
  return path.replace(/^\/(?:home\/[^/]+|root)(?=\/|$)/, '~');
}

describe('herdr web with --host: the local server and one over ssh', { skip: sshdMissing() }, () => {
  let local: TestServer;
  let remote: TestServer;
  let sshd: TestSshd;
  let web: WebProcess;

  before(async () => {
    local = await startServer();
    remote = await startServer();
    sshd = await startSshd(remote.socketPath);
    web = await startWebProcess(local.socketPath, ['--host', sshd.host, '--ssh-command', sshd.sshCommand]);
  });
  after(async () => {
    await web?.stop();
    sshd?.stop();
    await remote?.stop();
    await local?.stop();
  });

  it('shows both servers\' panes by host, and calls and streams each on its own server', async () => {
    await newWorkspace(local);
    const { paneId } = await newWorkspace(remote);
    await promptShown(remote, paneId);
    const socket = await openSocket(web, { cookie: `herdr_web_${new URL(web.origin).port}=${web.token}`, origin: web.origin });
    const messages = messagesOf(socket);
    const binary: Buffer[] = [];
    socket.on('message', (data, isBinary) => {
      if (isBinary) binary.push(data as Buffer);
    });
    const hello = await eventually(() => messages.find((message) => message.t === 'hello'), 'hello');
    assert.deepEqual(hello.t === 'hello' && hello.hosts, ['local', sshd.host]);
    const fleet = await eventually(() => messages.findLast((message) => message.t === 'fleet' && message.rows.length === 2 && message.hosts.every((host) => host.status === 'live')), 'both servers live');
    assert.deepEqual(fleet.t === 'fleet' && fleet.rows.map((row) => row.key).sort(), ['local/w1:p1', `${sshd.host}/w1:p1`].sort());
    socket.send(JSON.stringify({ t: 'stream', id: 7, host: sshd.host, pane: 'w1:p1' }));
    await eventually(() => messages.find((message) => message.t === 'stream' && message.id === 7 && message.notice.event === 'stream_started'), 'the remote stream');
    // A call without a host goes to the first server (the local one); with one, to that server.
    assert.equal((await answerTo(socket, messages, 8, 'pane.send_text', { pane_id: 'w1:p1', text: 'echo over-$((6*7))\r' })).error, undefined);
    await readUntil(local, '1-1', (text) => /^over-42$/m.test(text));
    socket.send(JSON.stringify({ t: 'call', id: 9, host: sshd.host, method: 'pane.send_text', params: { pane_id: 'w1:p1', text: 'echo remote-$((6*7))\r' } }));
    await readUntil(remote, paneId, (text) => /^remote-42$/m.test(text));
    await eventually(() => /remote-42/.test(Buffer.concat(binary).toString('latin1')), 'the remote output in the stream\'s frames');
    assert.doesNotMatch((await remote.call('pane.read', { pane_id: paneId, source: 'recent' })).read.text, /over-42/);
    socket.close();
  });
});
