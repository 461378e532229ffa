/**
 * docs/protocol.md §5.6: `notification.show` on a server that draws no screen. Its answer is
 * herdr's; what it shows goes out as the event `notification.shown` on both dialects, is kept for
 * `notification.list`, and every view shows it: `herdr watch` (live and --once) a line under the
 * table, `herdr pane attach` a desktop notification to the outer terminal, `herdr web` a toast.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumMissing, launchChromium } from '../harness/browser.js';
import { type WebProcess, startWebProcess } from '../harness/web.js';
import '../harness/page-probe.js';
import type { ServerMessage } from '../src/web/wire.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, eventually, herdrCli, oneAnswer, promptShown, sleep, startServer } from './helpers/server.js';
import { CliTerminal } from './helpers/terminal.js';

/** herdr lets one notification through a second: each test's next one waits that out. */
const INTERVAL_MS = 1100;

describe('notification.show', () => {
  let server: TestServer;
  let cli: ReturnType<typeof herdrCli>;
  before(async () => {
    server = await startServer();
    cli = herdrCli(server);
  });
  after(() => server.stop());

  const show = (params: object, socket = server.socketPath) => oneAnswer(socket, { id: 'n', method: 'notification.show', params });

  it('reaches a subscriber on each dialect, cleaned as herdr cleans it; herdr\'s answer says it was shown', async () => {
    await sleep(INTERVAL_MS);
    const old = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'notification.shown' }] });
    const current = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'notification.shown' }] });
    const answer = await show({ title: '  build\n\tfailed\x07 ', body: 'api   workspace', position: 'top-left', sound: 'request' }, server.currentSocketPath);
    assert.deepEqual(answer.result, { type: 'notification_show', shown: true, reason: 'shown' });
    for (const subscriber of [old, current]) {
      const [line] = await subscriber.until((events) => events.length > 0, 'the notification');
      assert.equal(line?.event, 'notification.shown');
      const data = line?.data as Record<string, unknown>;
      assert.deepEqual({ ...data, at: 0 }, { title: 'build failed', body: 'api workspace', position: 'top-left', sound: 'request', at: 0 });
      assert.ok(Math.abs(Date.now() - (data.at as number)) < 10_000);
      assert.equal(typeof line?.seq, 'number');
    }
    // A second one within the second is not shown, and nobody hears of it.
    const limited = await show({ title: 'again' });
    assert.deepEqual(limited.result, { type: 'notification_show', shown: false, reason: 'rate_limited' });
    await sleep(300);
    assert.equal(old.events.length, 1);
    old.close();
    current.close();
    // With nobody watching, herdr's no_foreground_client; it is still kept.
    await eventually(async () => (await server.call('server.stats', {})).subscriptions === 0, 'the subscriptions to close');
    await sleep(INTERVAL_MS);
    assert.deepEqual((await show({ title: 'to nobody' })).result, { type: 'notification_show', shown: false, reason: 'no_foreground_client' });
    const { notifications } = await server.call('notification.list', {});
    assert.deepEqual(notifications.slice(-2).map((n) => n.title), ['build failed', 'to nobody']);
  });

  it('refuses a title with nothing visible and params outside herdr\'s shapes', async () => {
    for (const params of [{ title: ' \x1b\x07 \n' }, {}, { title: 't', position: 'middle' }, { title: 't', sound: 'loud' }]) {
      assert.equal((await show(params)).error?.code, 'invalid_request', JSON.stringify(params));
    }
  });

  it('names the pane the asking process runs in', async () => {
    await sleep(INTERVAL_MS);
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = `${workspace.stable_id}:p1`;
    await promptShown(server, pane);
    const subscriber = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'notification.shown' }] });
    // herdr's CLI wrapper, from inside the pane.
    await server.call('pane.send_input', { pane_id: pane, text: `"$HERDR_BIN_PATH" notification show 'tests done' --body '3 failed' --sound done >/dev/null` });
    const [line] = await subscriber.until((events) => events.length > 0, 'the notification from the pane');
    const data = line?.data as Record<string, unknown>;
    assert.deepEqual([data.title, data.body, data.sound, data.stable_id], ['tests done', '3 failed', 'done', pane]);
    assert.equal(data.pane_id, `${workspace.workspace_id}-1`, 'the 0.2.0 dialect names it by position');
    subscriber.close();
  });

  it('herdr watch shows it under the table, live and with --once', async () => {
    await sleep(INTERVAL_MS);
    await server.call('workspace.create', { cwd: server.dir });
    const watch = new CliTerminal(['watch', '--socket', server.socketPath], { cwd: server.dir, cols: 160, rows: 20 });
    try {
      await watch.screenMatches(/herdr watch/);
      await eventually(async () => (await server.call('server.stats', {})).subscriptions >= 2, 'watch to subscribe');
      await show({ title: 'deploy finished', body: 'prod is green' });
      const screen = await watch.screenMatches(/^notification \d+s ago: deploy finished — prod is green$/m);
      // Under the table: below every row.
      const lines = screen.split('\n');
      const at = lines.findIndex((text) => text.startsWith('notification '));
      assert.ok(lines.findIndex((text) => text.startsWith('PANE') || text.includes('STATE')) < at);
    } finally {
      watch.kill();
    }
    const once = (await cli('watch', '--once')).stdout.trimEnd().split('\n');
    assert.match(once.at(-1) ?? '', /^notification \d+s ago: deploy finished — prod is green$/);
  });

  it('herdr pane attach passes it to the outer terminal as a desktop notification (OSC 9), never inside the pane\'s output', async () => {
    await sleep(INTERVAL_MS);
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = `${workspace.stable_id}:p1`;
    await promptShown(server, pane);
    const terminal = new CliTerminal(['pane', 'attach', pane, '--socket', server.socketPath], { cwd: server.dir, env: { TERM_PROGRAM: 'WezTerm', TMUX: '' } });
    try {
      await terminal.screenMatches(/^\$ /m);
      await eventually(async () => (await server.call('server.stats', {})).subscriptions >= 1, 'attach to subscribe');
      await show({ title: 'review ready', body: 'PR 12', sound: 'done' });
      await eventually(() => terminal.output.includes('\x1b]9;review ready: PR 12\x1b\\\x07'), 'the OSC 9 notification');
      assert.doesNotMatch(await terminal.screen(), /review ready/, 'nothing drawn on the pane\'s picture');
    } finally {
      terminal.kill();
    }
  });

  it('herdr web passes it to its pages, which show a toast', async () => {
    await sleep(INTERVAL_MS);
    const web: WebProcess = await startWebProcess(server.socketPath);
    let browser: Browser | undefined;
    try {
      const cookie = `herdr_web_${new URL(web.origin).port}=${web.token}`;
      const socket = new WebSocket(`${web.origin.replace('http', 'ws')}/ws`, { headers: { cookie, origin: web.origin } });
      const messages: ServerMessage[] = [];
      socket.on('message', (data, isBinary) => isBinary || messages.push(JSON.parse(data.toString()) as ServerMessage));
      await new Promise((resolve) => socket.once('open', resolve));
      await eventually(async () => (await server.call('server.stats', {})).subscriptions >= 2, 'herdr web to subscribe');
      await show({ title: 'nightly build', body: 'all green', position: 'bottom-left' });
      const message = await eventually(() => messages.find((m): m is Extract<ServerMessage, { t: 'notification' }> => m.t === 'notification'), 'the notification message');
      assert.deepEqual([message.host, message.notification.title, message.notification.body, message.notification.position], ['local', 'nightly build', 'all green', 'bottom-left']);
      socket.close();

      if (chromiumMissing()) return;
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.goto(web.url);
      await page.waitForFunction(() => window.herdrWeb !== undefined);
      await sleep(INTERVAL_MS);
      await show({ title: 'toast me', body: 'from the API' });
      await eventually(async () => (await page.evaluate(() => window.herdrWeb.toasts())).some((text) => text.includes('toast me') && text.includes('from the API')), 'the toast');
    } finally {
      await browser?.close();
      await web.stop();
    }
  });
});
