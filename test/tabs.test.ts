/**
 * docs/protocol.md §5.3: the tab tier. A workspace has one tab unless a client makes
 * more; tabs start, focus, rename and close with their events; a pane's tab closes with
 * its last pane and the workspace with its last tab; what a 0.2.0 client sees is unchanged.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HerdrError } from '../src/client/client.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, eventually, promptShown, rawExchange, readUntil, startServer } from './helpers/server.js';

const TAB_EVENTS = ['tab.created', 'tab.closed', 'tab.focused', 'tab.renamed'].map((type) => ({ type }));
const PANE_AND_WORKSPACE_EVENTS = ['workspace.created', 'workspace.closed', 'workspace.focused', 'pane.created', 'pane.closed', 'pane.focused'].map((type) => ({ type }));

describe('tabs', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof HerdrError) return error.code;
      throw error;
    }
    return 'no error';
  };

  it('a workspace has one tab, and a 0.2.0 client sees what it always did, plus the tab fields', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, label: 'one' });
    assert.equal(workspace.workspace_id, '1');
    assert.equal(workspace.tab_count, 1);
    assert.equal(workspace.active_tab_id, `${workspace.stable_id}:t1`);
    const { panes } = await server.call('pane.list', { workspace_id: '1' });
    assert.deepEqual(panes.map((pane) => [pane.pane_id, pane.tab_id]), [['1-1', `${workspace.stable_id}:t1`]]);
    assert.equal(panes[0]?.terminal_id, panes[0]?.stable_id, 'a terminal never leaves its pane here: its id is the pane\'s stable one');
    const { tabs } = await server.call('tab.list', { workspace_id: '1' });
    assert.equal(tabs.length, 1);
    const { label, ...tab } = tabs[0] ?? { label: '' };
    assert.deepEqual(tab, { tab_id: `${workspace.stable_id}:t1`, workspace_id: '1', number: 1, focused: true, pane_count: 1, agent_status: 'unknown' });
    assert.ok(label !== '', 'a tab without a label of its own is named after its directory, as a workspace is');
    await server.call('workspace.close', { workspace_id: '1' });
  });

  it('tab.create starts a tab with its first pane (HERDR_TAB_ID set), in order of events, focused only when asked', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const ws = workspace.stable_id;
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [...TAB_EVENTS, ...PANE_AND_WORKSPACE_EVENTS] });
    try {
      const quiet = await server.call('tab.create', { workspace_id: ws, cwd: server.dir, label: 'quiet' });
      assert.equal(quiet.type, 'tab_created');
      assert.deepEqual(
        { ...quiet.tab, agent_status: undefined },
        { tab_id: `${ws}:t2`, workspace_id: '1', number: 2, label: 'quiet', focused: false, pane_count: 1, agent_status: undefined },
      );
      assert.equal(quiet.root_pane.pane_id, '1-2');
      assert.equal(quiet.root_pane.tab_id, `${ws}:t2`);
      assert.equal(quiet.root_pane.focused, false);
      await events.until((lines) => lines.some((line) => line.event === 'pane_created'), 'the quiet tab\'s events');
      assert.deepEqual(events.names(), ['tab_created', 'pane_created'], 'no focus moved');

      const loud = await server.call('tab.create', { cwd: server.dir, focus: true });
      assert.equal(loud.tab.tab_id, `${ws}:t3`, 'the active workspace, without workspace_id');
      assert.equal(loud.tab.focused, true);
      await events.until((lines) => lines.filter((line) => line.event === 'pane_focused').length === 1, 'the loud tab\'s events');
      assert.deepEqual(events.names().slice(2), ['tab_created', 'pane_created', 'workspace_focused', 'tab_focused', 'pane_focused']);
      assert.deepEqual((await server.call('pane.list', { workspace_id: ws })).panes.filter((pane) => pane.focused).map((pane) => pane.pane_id), ['1-3']);

      const pane = loud.root_pane.pane_id;
      await promptShown(server, pane);
      await server.call('pane.send_input', { pane_id: pane, text: 'echo "tab=$HERDR_TAB_ID"', keys: ['Enter'] });
      await readUntil(server, pane, (text) => text.includes(`tab=${ws}:t3`));

      const { tabs } = await server.call('tab.list', {});
      assert.deepEqual(tabs.map((tab) => [tab.tab_id, tab.number, tab.focused]), [[`${ws}:t1`, 1, false], [`${ws}:t2`, 2, false], [`${ws}:t3`, 3, true]]);
      assert.equal((await server.call('workspace.get', { workspace_id: ws })).workspace.tab_count, 3);
      assert.equal((await server.call('workspace.get', { workspace_id: ws })).workspace.pane_count, 3, 'a workspace counts the panes of every tab');
    } finally {
      events.close();
      await server.call('workspace.close', { workspace_id: ws });
    }
  });

  it('focus and rename: the focused pane is the active tab\'s, each change an event', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const ws = workspace.stable_id;
    const second = await server.call('tab.create', { workspace_id: ws, cwd: server.dir });
    const split = await server.call('pane.split', { target_pane_id: second.root_pane.pane_id, direction: 'right', cwd: server.dir });
    assert.equal(split.pane.tab_id, second.tab.tab_id, 'a split stays in its target\'s tab');
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [...TAB_EVENTS, ...PANE_AND_WORKSPACE_EVENTS] });
    try {
      const focused = await server.call('tab.focus', { tab_id: second.tab.tab_id });
      assert.equal(focused.tab.focused, true);
      const { panes } = await server.call('pane.list', { workspace_id: ws });
      assert.deepEqual(panes.filter((pane) => pane.focused).map((pane) => pane.stable_id), [second.root_pane.stable_id], 'the tab kept its own focused pane (a split focuses its target)');
      assert.equal((await server.call('workspace.get', { workspace_id: ws })).workspace.active_tab_id, second.tab.tab_id);

      const renamed = await server.call('tab.rename', { tab_id: second.tab.tab_id, label: 'tests' });
      assert.equal(renamed.tab.label, 'tests');
      await events.until((lines) => lines.some((line) => line.event === 'tab_renamed'), 'tab_renamed');
      assert.deepEqual(events.names(), ['workspace_focused', 'tab_focused', 'pane_focused', 'tab_renamed']);
      assert.deepEqual(events.events.find((line) => line.event === 'tab_renamed')?.data, { type: 'tab_renamed', tab_id: second.tab.tab_id, workspace_id: '1', label: 'tests' });

      await server.call('tab.focus', { tab_id: `${ws}:t1` });
      const { panes: again } = await server.call('pane.list', { workspace_id: ws });
      assert.deepEqual(again.filter((pane) => pane.focused).map((pane) => pane.pane_id), ['1-1'], 'back on the first tab: its pane');
    } finally {
      events.close();
      await server.call('workspace.close', { workspace_id: ws });
    }
  });

  it('tab.close ends its panes (pane_closed for each, then tab_closed); ids close up; the last tab takes the workspace', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const ws = workspace.stable_id;
    const second = await server.call('tab.create', { workspace_id: ws, cwd: server.dir, focus: true });
    await server.call('pane.split', { target_pane_id: second.root_pane.pane_id, direction: 'down', cwd: server.dir });
    const third = await server.call('tab.create', { workspace_id: ws, cwd: server.dir });
    assert.equal(third.root_pane.pane_id, '1-4');
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [...TAB_EVENTS, ...PANE_AND_WORKSPACE_EVENTS] });
    try {
      await server.call('tab.close', { tab_id: second.tab.tab_id });
      await events.until((lines) => lines.some((line) => line.event === 'tab_closed'), 'tab_closed');
      assert.deepEqual(events.names().slice(0, 3), ['pane_closed', 'pane_closed', 'tab_closed']);
      assert.equal((await server.call('pane.get', { pane_id: third.root_pane.stable_id })).pane.pane_id, '1-2', 'the later pane moved down');
      assert.equal(await codeOf(server.call('tab.get', { tab_id: second.tab.tab_id })), 'tab_not_found');
      const { workspace: after } = await server.call('workspace.get', { workspace_id: ws });
      assert.equal(after.tab_count, 2);
      assert.equal(after.active_tab_id, third.tab.tab_id, 'the next tab became active');

      // The last pane of a tab exits: the tab goes, the workspace stays.
      await server.call('pane.send_input', { pane_id: third.root_pane.stable_id, text: 'exit', keys: ['Enter'] });
      await events.until((lines) => lines.filter((line) => line.event === 'tab_closed').length === 2, 'the exited pane\'s tab closed');
      assert.equal((await server.call('workspace.get', { workspace_id: ws })).workspace.tab_count, 1);

      await server.call('tab.close', { tab_id: `${ws}:t1` });
      await events.until((lines) => lines.some((line) => line.event === 'workspace_closed'), 'workspace_closed');
      assert.equal(await codeOf(server.call('workspace.get', { workspace_id: ws })), 'workspace_not_found');
    } finally {
      events.close();
    }
  });

  it('events.wait waits for a tab event, in herdr\'s answer over the current socket', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const waiting = rawExchange(
      server.currentSocketPath,
      `${JSON.stringify({ id: 'w', method: 'events.wait', params: { match_event: { event: 'tab_created', workspace_id: workspace.stable_id }, timeout_ms: 10_000 } })}\n`,
      10_000,
    );
    await eventually(async () => (await server.call('server.stats', {})).waits === 1, 'the wait to be open');
    const made = await server.call('tab.create', { workspace_id: workspace.stable_id, cwd: server.dir, label: 'waited' });
    const answer = JSON.parse((await waiting).lines[0] ?? '{}') as { result?: { type: string; event: { event: string; data: { tab: { tab_id: string; workspace_id: string } } } } };
    assert.equal(answer.result?.type, 'wait_matched');
    assert.equal(answer.result?.event.event, 'tab_created');
    assert.deepEqual(answer.result?.event.data.tab, { ...made.tab, workspace_id: workspace.stable_id });
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('bad tab ids and targets are refused by name, and a tab that cannot start leaves nothing behind', async () => {
    for (const open of (await server.call('workspace.list', {})).workspaces) await server.call('workspace.close', { workspace_id: open.stable_id });
    for (const id of ['w1:t9', 't1', '1', 'w1:p1', '']) assert.equal(await codeOf(server.call('tab.get', { tab_id: id })), 'tab_not_found', id);
    assert.equal(await codeOf(server.call('tab.create', {})), 'workspace_not_found', 'no workspace is open');
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    assert.equal(await codeOf(server.call('tab.create', { workspace_id: 'w999' })), 'workspace_not_found');
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [...TAB_EVENTS, ...PANE_AND_WORKSPACE_EVENTS] });
    try {
      assert.equal(await codeOf(server.call('tab.create', { workspace_id: workspace.stable_id, cwd: join(server.dir, 'nowhere') })), 'tab_create_failed');
      assert.equal(await codeOf(server.call('tab.create', { workspace_id: workspace.stable_id, command: ['/nonexistent/agent'] })), 'tab_create_failed');
      assert.equal(await codeOf(server.call('tab.rename', { tab_id: `${workspace.stable_id}:t1`, label: 'x'.repeat(2000) })), 'invalid_request');
      await server.call('ping', {});
      assert.deepEqual((await server.call('tab.list', { workspace_id: workspace.stable_id })).tabs.map((tab) => tab.tab_id), [`${workspace.stable_id}:t1`]);
      await eventually(async () => (await server.call('server.stats', {})).panes === 1, 'no pane left from the failed tabs');
      assert.deepEqual(events.names(), [], 'no event for what did not happen');
    } finally {
      events.close();
      await server.call('workspace.close', { workspace_id: workspace.stable_id });
    }
  });
});
