/**
 * docs/protocol.md §6: the read sources herdr's current protocol adds, `recent_unwrapped` (the
 * recent rows with the ones the terminal wrapped joined) and `detection` (the screen as the
 * agent checks read it), on every read and wait: pane.read, pane.wait_for_output,
 * pane.output_matched, agent.read and the CLI's --source, in both dialects.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, eventually, herdrCli, oneAnswer, readUntil, startServer } from './helpers/server.js';

const FAKE_BIN = join(REPO_ROOT, 'test', 'fixtures', 'bin');

/** 300 characters of words, one space exactly at the 80th column (where the terminal wraps). */
const LONG = `${'a'.repeat(79)} ${'b'.repeat(79)}c${'d'.repeat(140)}`;

describe('read sources recent_unwrapped and detection', () => {
  let server: TestServer;
  let cli: ReturnType<typeof herdrCli>;
  before(async () => {
    server = await startServer({ env: { PATH: `${FAKE_BIN}:${process.env.PATH}` } });
    cli = herdrCli(server);
  });
  after(() => server.stop());

  /** A pane of 80 columns that printed `script`'s output and then stays. */
  async function paneRunning(script: string, rows = 10): Promise<string> {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, cols: 80, rows, command: ['/bin/sh', '-c', `${script}; exec sleep 600`] });
    return `${workspace.stable_id}:p1`;
  }

  it('recent_unwrapped joins a 300-character line the terminal wrapped into 4 rows, on the screen and in the history', async () => {
    assert.equal(LONG.length, 300);
    const onScreen = await paneRunning(`printf '%s\\nafter\\n' '${LONG}'`);
    await readUntil(server, onScreen, (text) => /^after$/m.test(text));
    const rows = (await server.call('pane.read', { pane_id: onScreen, source: 'recent', lines: 10 })).read;
    assert.deepEqual(rows.text.split('\n').slice(0, 4), [LONG.slice(0, 80), LONG.slice(80, 160), LONG.slice(160, 240), LONG.slice(240)]);
    const joined = (await server.call('pane.read', { pane_id: onScreen, source: 'recent_unwrapped', lines: 10 })).read;
    assert.equal(joined.text, `${LONG}\nafter\n`);
    assert.equal(joined.source, 'recent_unwrapped');
    assert.equal(joined.truncated, false);

    // 30 more lines push it off a 10-row screen into the pane's history.
    const inHistory = await paneRunning(`printf '%s\\n' '${LONG}'; seq 1 30`);
    await readUntil(server, inHistory, (text) => /^30$/m.test(text), { source: 'visible' });
    const fromHistory = (await server.call('pane.read', { pane_id: inHistory, source: 'recent_unwrapped', lines: 40 })).read;
    assert.equal(fromHistory.text.split('\n')[0], LONG);
    // `lines` counts the rows the terminal drew, as for `recent`: a window starting inside the line gives its tail.
    const tail = (await server.call('pane.read', { pane_id: inHistory, source: 'recent_unwrapped', lines: 32 })).read;
    assert.equal(tail.text.split('\n')[0], LONG.slice(160));
    assert.equal(tail.truncated, true);
  });

  it('the current dialect reads it too, and the CLI with herdr\'s spelling', async () => {
    const pane = await paneRunning(`printf '%s\\n' '${LONG}'`);
    await readUntil(server, pane, (text) => text.includes('dddd'));
    const answer = await oneAnswer(server.currentSocketPath, { id: 'r', method: 'pane.read', params: { pane_id: pane, source: 'recent_unwrapped' } });
    assert.equal(answer.result.read.text, `${LONG}\n`);
    assert.equal(answer.result.read.pane_id, pane);
    for (const source of ['recent-unwrapped', 'recent_unwrapped']) {
      assert.equal((await cli('pane', 'read', pane, '--source', source)).stdout, `${LONG}\n`);
    }
    // The colour form joins the same rows.
    const styled = await paneRunning(`printf '\\033[31m%s\\033[0m\\n' '${LONG}'`);
    await readUntil(server, styled, (text) => text.includes('dddd'));
    const ansi = (await server.call('pane.read', { pane_id: styled, source: 'recent_unwrapped', format: 'ansi' })).read;
    assert.equal(ansi.format, 'ansi');
    assert.equal(ansi.text.replace(/\x1b\[[0-9;]*m/g, ''), `${LONG}\n`);
    assert.match(ansi.text, /\x1b\[[0-9;]*31m/);
  });

  it('waits and output_matched subscriptions match across the wrap in recent_unwrapped, not in recent', async () => {
    const pane = await paneRunning(`sleep 0.5; printf '%s\\n' '${LONG}'`);
    // The 80th column is a space: "a b" only exists with the wrap joined.
    const match = { type: 'regex', value: 'a b+c' } as const;
    const subscriber = await EventClient.subscribe(server.currentSocketPath, {
      subscriptions: [{ type: 'pane.output_matched', pane_id: pane, source: 'recent_unwrapped', match }],
    });
    assert.equal(subscriber.ack.result?.type, 'subscription_started');
    const waited = await server.call('pane.wait_for_output', { pane_id: pane, source: 'recent_unwrapped', match, timeout_ms: 10_000 });
    assert.equal(waited.matched_line, LONG);
    assert.equal(waited.read.source, 'recent_unwrapped');
    const [event] = await subscriber.until((events) => events.length > 0, 'the output_matched event');
    assert.equal(event?.event, 'pane.output_matched');
    assert.equal((event?.data as { matched_line: string }).matched_line, LONG);
    subscriber.close();
    // The same pattern never matches the physical rows.
    await assert.rejects(server.call('pane.wait_for_output', { pane_id: pane, source: 'recent', match, timeout_ms: 300 }), /timed out/);
  });

  it('detection is the screen the agent checks read: plain text, whatever the format', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, cols: 80, rows: 12, command: ['claude'] });
    const pane = `${workspace.stable_id}:p1`;
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.agent_state === 'blocked', 'the fake claude to be blocked');
    const detection = (await server.call('pane.read', { pane_id: pane, source: 'detection', format: 'ansi' })).read;
    assert.equal(detection.source, 'detection');
    assert.equal(detection.format, 'text');
    const visible = (await server.call('pane.read', { pane_id: pane, source: 'visible' })).read;
    assert.equal(detection.text, visible.text);
    assert.match(detection.text, /Do you want to proceed\?/);
    // Every line the screen rules took as evidence is a line of what detection gives.
    const { explain } = await server.call('agent.explain', { target: pane });
    const evidence = (explain.screen?.rules ?? []).flatMap((rule) => rule.evidence);
    assert.ok(evidence.length > 0, 'the rules that held name their lines');
    const lines = detection.text.split('\n');
    for (const line of evidence) assert.ok(lines.includes(line), `evidence "${line}" is in the detection text`);

    // agent.read, the wait and the CLI read the same.
    const agentRead = await server.call('agent.read', { target: pane, source: 'detection' });
    assert.equal(agentRead.read.text, detection.text);
    const waited = await server.call('pane.wait_for_output', { pane_id: pane, source: 'detection', match: { type: 'substring', value: 'proceed' }, timeout_ms: 5_000 });
    assert.equal(waited.matched_line, 'Do you want to proceed?');
    assert.equal((await cli('agent', 'read', pane, '--source', 'detection')).stdout, detection.text);
    assert.match((await cli('pane', 'wait-output', pane, '--source', 'detection', '--match', 'Yes')).stdout, /1\. Yes/);
  });
});
