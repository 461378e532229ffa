/**
 * herdr's plugins (docs/protocol.md §16), tried with a plugin of our own written the way
 * herdr's docs describe one (test/fixtures/plugins/notes): linked, listed, disabled and
 * enabled, its actions listed and run for real (their side effects, their environment,
 * their log), its pane opened as a real pane running its command, focused and closed;
 * bad manifests refused with herdr's codes, and nothing changed by a refusal.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HerdrClient } from '../src/index.js';
import type { PluginCommandLog } from '../src/protocol/plugins.js';
import { REPO_ROOT, type TestServer, codeOf, eventually, herdrCli, readUntil, startServer, tempDir } from './helpers/server.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'notes');

/** The fixture copied where a test may change it (a plugin's directory is the user's own). */
function pluginCopy(): string {
  const dir = join(tempDir('herdr-plugin-'), 'notes');
  cpSync(FIXTURE, dir, { recursive: true });
  return realpathSync(dir);
}

/** A plugin directory holding only this manifest. */
function manifestDir(toml: string): string {
  const dir = tempDir('herdr-manifest-');
  writeFileSync(join(dir, 'herdr-plugin.toml'), toml);
  return dir;
}

const HEAD = 'id = "t.bad"\nname = "Bad"\nversion = "1.0.0"\nmin_herdr_version = "0.7.0"\nplatforms = ["linux"]\n';

/** Notes a run of write-note.sh left, as `key=value` lines. */
function note(stateDir: string, which: string): Record<string, string> {
  const text = readFileSync(join(stateDir, `note-${which}.txt`), 'utf8');
  return Object.fromEntries(text.trimEnd().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** The log entry of `logId` once its command ended. */
function finished(client: HerdrClient, logId: string): Promise<PluginCommandLog> {
  return eventually(async () => {
    const { logs } = await client.call('plugin.log.list', { limit: 200 });
    const log = logs.find((entry) => entry.log_id === logId);
    return log && log.status !== 'running' ? log : undefined;
  }, `plugin run ${logId} to end`);
}

describe('herdr plugins', () => {
  let server: TestServer;
  let client: HerdrClient;
  let plugin: string;
  let stateDir: string;

  before(async () => {
    stateDir = join(tempDir('herdr-plugin-state-'), 'state');
    server = await startServer({ stateDir });
    // A plugin speaks herdr's current protocol: the tests do too.
    client = new HerdrClient({ socketPath: server.currentSocketPath });
    plugin = pluginCopy();
  });

  after(async () => {
    client.close();
    await server.stop();
  });

  it('links a plugin from its directory, lists it, disables, enables and unlinks it', async () => {
    assert.deepEqual((await client.call('plugin.list', {})).plugins, []);
    const { plugin: linked } = await client.call('plugin.link', { path: plugin });
    assert.equal(linked.plugin_id, 'test.notes');
    assert.equal(linked.name, 'Notes');
    assert.equal(linked.version, '0.1.0');
    assert.equal(linked.min_herdr_version, '0.7.0');
    assert.equal(linked.description, 'Leaves notes where the tests can find them');
    assert.equal(linked.manifest_path, join(plugin, 'herdr-plugin.toml'));
    assert.equal(linked.plugin_root, plugin);
    assert.equal(linked.enabled, true);
    assert.deepEqual(linked.platforms, ['linux', 'macos']);
    assert.deepEqual(linked.source, { kind: 'local' });
    assert.equal(linked.warnings, undefined, 'platforms declared and every event known: nothing to warn of');
    // herdr's order: actions and panes by id.
    assert.deepEqual(linked.actions?.map((a) => a.id), ['fail', 'list-workspaces', 'windows-only', 'write-note']);
    assert.deepEqual(linked.panes?.map((p) => [p.id, p.placement]), [['board', 'split'], ['broken', 'tab'], ['picker', 'popup']]);
    assert.deepEqual(linked.panes?.[2], { id: 'picker', title: 'Picker', placement: 'popup', width: '80%', height: 20, command: ['sh', 'board.sh'] });
    assert.deepEqual(linked.startup, [{ command: ['sh', 'write-note.sh', 'startup'] }]);
    assert.deepEqual(linked.events, [{ on: 'workspace.created', command: ['sh', 'write-note.sh', 'event'] }]);
    // Its own config and state directories, made at link; linking ran nothing.
    assert.ok(existsSync(join(stateDir, 'plugins', 'config', 'test.notes')));
    assert.ok(existsSync(join(stateDir, 'plugins', 'state', 'test.notes')));
    assert.deepEqual((await client.call('plugin.log.list', {})).logs, []);

    assert.deepEqual((await client.call('plugin.list', {})).plugins, [linked]);
    assert.deepEqual((await client.call('plugin.list', { plugin_id: 'test.notes' })).plugins, [linked]);
    assert.deepEqual((await client.call('plugin.list', { plugin_id: 'other' })).plugins, []);
    assert.equal(await codeOf(client.call('plugin.list', { plugin_id: 'no spaces' })), 'invalid_plugin_id');
    // The 0.2.0 socket serves the same plugins.
    assert.deepEqual((await server.call('plugin.list', {})).plugins, [linked]);

    const disabled = await client.call('plugin.disable', { plugin_id: 'test.notes' });
    assert.equal(disabled.type, 'plugin_disabled');
    assert.equal(disabled.plugin.enabled, false);
    assert.equal((await client.call('plugin.list', {})).plugins[0]?.enabled, false);
    assert.equal(await codeOf(client.call('plugin.action.invoke', { action_id: 'write-note' })), 'plugin_disabled');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board' })), 'plugin_disabled');
    // Its actions are still listed (herdr lists them; only running them is refused).
    assert.equal((await client.call('plugin.action.list', {})).actions.length, 4);
    const enabled = await client.call('plugin.enable', { plugin_id: 'test.notes' });
    assert.equal(enabled.type, 'plugin_enabled');
    assert.equal(enabled.plugin.enabled, true);
    assert.equal(await codeOf(client.call('plugin.enable', { plugin_id: 'nobody' })), 'plugin_not_found');

    assert.deepEqual(await client.call('plugin.unlink', { plugin_id: 'test.notes' }), { type: 'plugin_unlinked', plugin_id: 'test.notes', removed: true });
    assert.deepEqual(await client.call('plugin.unlink', { plugin_id: 'test.notes' }), { type: 'plugin_unlinked', plugin_id: 'test.notes', removed: false });
    assert.deepEqual((await client.call('plugin.list', {})).plugins, []);
    assert.equal(await codeOf(client.call('plugin.action.invoke', { action_id: 'write-note' })), 'plugin_action_not_found');
    // Unlinking leaves the plugin's files alone.
    assert.ok(existsSync(join(plugin, 'herdr-plugin.toml')));
    // Linked disabled: listed, nothing runs.
    assert.equal((await client.call('plugin.link', { path: join(plugin, 'herdr-plugin.toml'), enabled: false })).plugin.enabled, false);
    await client.call('plugin.enable', { plugin_id: 'test.notes' });
  });

  it('runs an action as argv in its directory, with herdr\'s plugin environment, and logs the run', async () => {
    const { workspace } = await client.workspace.create({ cwd: server.dir, label: 'notes-ws' });
    assert.equal(workspace.workspace_id, 'w1');
    // Its [[events]] hook on workspace.created ran, given the event as herdr's envelope.
    const hook = await eventually(async () => (await client.call('plugin.log.list', {})).logs.find((l) => l.event === 'workspace.created' && l.status !== 'running'), 'the workspace.created hook');
    assert.equal(hook.status, 'succeeded', hook.stderr);
    assert.deepEqual(hook.command, ['sh', 'write-note.sh', 'event']);
    const heard = note(join(stateDir, 'plugins', 'state', 'test.notes'), 'event');
    assert.equal(heard.event, 'workspace.created');
    assert.equal(heard.workspace, 'w1');
    const envelope = JSON.parse(heard.event_json ?? '');
    assert.equal(envelope.event, 'workspace_created');
    assert.equal(envelope.data.type, 'workspace_created');
    assert.equal(envelope.data.workspace.workspace_id, 'w1', 'in herdr\'s current ids');
    const { actions } = await client.call('plugin.action.list', { plugin_id: 'test.notes' });
    assert.deepEqual(actions.map((a) => a.action_id), ['fail', 'list-workspaces', 'windows-only', 'write-note']);
    assert.deepEqual(actions[3], {
      plugin_id: 'test.notes',
      action_id: 'write-note',
      title: 'Write a note',
      description: 'Writes what the action was given into the plugin\'s state directory',
      contexts: ['workspace', 'pane'],
      command: ['sh', 'write-note.sh'],
      platforms: ['linux', 'macos'],
    });
    assert.deepEqual(actions[2]?.platforms, ['windows'], 'an action\'s own platforms win over the plugin\'s');

    const invoked = await client.call('plugin.action.invoke', { action_id: 'write-note' });
    assert.equal(invoked.type, 'plugin_action_invoked');
    assert.equal(invoked.action.action_id, 'write-note');
    assert.equal(invoked.log.plugin_id, 'test.notes');
    assert.equal(invoked.log.action_id, 'write-note');
    assert.deepEqual(invoked.log.command, ['sh', 'write-note.sh']);
    const { context } = invoked;
    assert.equal(context.workspace_id, 'w1');
    assert.equal(context.workspace_label, 'notes-ws');
    assert.equal(context.tab_id, 'w1:t1');
    assert.equal(context.focused_pane_id, 'w1:p1');
    assert.equal(context.focused_pane_status, 'unknown');
    assert.equal(context.invocation_source, 'api');

    const log = await finished(client, invoked.log.log_id);
    assert.equal(log.status, 'succeeded');
    assert.equal(log.exit_code, 0);
    const states = join(stateDir, 'plugins', 'state', 'test.notes');
    assert.equal(log.stdout, `wrote ${join(states, 'note-action.txt')}\n`);
    assert.equal(log.stderr, 'a line on stderr\n');
    assert.ok((log.finished_unix_ms ?? 0) >= log.started_unix_ms);

    const env = note(states, 'action');
    assert.equal(env.action, 'write-note');
    assert.equal(env.event, '');
    assert.equal(env.plugin, 'test.notes');
    assert.equal(env.root, plugin);
    assert.equal(env.cwd, plugin, 'run in the plugin\'s directory');
    assert.equal(env.config, join(stateDir, 'plugins', 'config', 'test.notes'));
    assert.equal(env.socket, server.currentSocketPath, 'a plugin speaks herdr\'s current protocol');
    assert.equal(env.bin, join(REPO_ROOT, 'bin', 'herdr.js'));
    assert.equal(env.herdr_env, '1');
    assert.equal(env.workspace, 'w1');
    assert.equal(env.tab, 'w1:t1');
    assert.equal(env.pane, 'w1:p1');
    assert.deepEqual(JSON.parse(env.context ?? ''), context);

    // A qualified id, or the plugin named: the same action. A context the client gives wins field by field.
    const qualified = await client.call('plugin.action.invoke', { action_id: 'test.notes.write-note', context: { workspace_id: 'w7', selected_text: 'picked' } });
    assert.equal(qualified.context.workspace_id, 'w7');
    assert.equal(qualified.context.selected_text, 'picked');
    assert.equal(qualified.context.tab_id, 'w1:t1');
    await finished(client, qualified.log.log_id);
    assert.equal(note(states, 'action').workspace, 'w7');
    const named = await client.call('plugin.action.invoke', { plugin_id: 'test.notes', action_id: 'write-note' });
    assert.equal((await finished(client, named.log.log_id)).status, 'succeeded');

    // A command that fails is logged as failed, with its exit code and output.
    const failing = await client.call('plugin.action.invoke', { action_id: 'fail' });
    const failed = await finished(client, failing.log.log_id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.exit_code, 3);
    assert.equal(failed.stderr, 'about to fail\n');

    // The whole herdr CLI is the plugin API: through HERDR_BIN_PATH it reaches this server, in herdr's current shapes.
    const listing = await finished(client, (await client.call('plugin.action.invoke', { action_id: 'list-workspaces' })).log.log_id);
    assert.equal(listing.status, 'succeeded', listing.stderr);
    assert.match(listing.stdout ?? '', /"workspace_id":"w1"/);

    assert.equal(await codeOf(client.call('plugin.action.invoke', { action_id: 'windows-only' })), 'platform_unsupported');
    assert.equal(await codeOf(client.call('plugin.action.invoke', { action_id: 'nothing' })), 'plugin_action_not_found');
    assert.equal(await codeOf(client.call('plugin.action.invoke', { plugin_id: 'test.notes', action_id: 'nothing' })), 'plugin_action_not_found');
    assert.equal(await codeOf(client.call('plugin.action.invoke', { plugin_id: 'test.notes', action_id: 'a.b' })), 'invalid_plugin_action_id');
    assert.equal(await codeOf(client.call('plugin.action.invoke', { plugin_id: 'nobody', action_id: 'x' })), 'plugin_not_found');

    // Two plugins with one action id: a bare id is ambiguous, the qualified one is not.
    const twin = manifestDir('id = "test.twin"\nname = "Twin"\nversion = "1.0.0"\nmin_herdr_version = "0.8.0"\nplatforms = ["linux"]\n\n[[actions]]\nid = "write-note"\ntitle = "Same id"\ncommand = ["true"]\n');
    await client.call('plugin.link', { path: twin });
    assert.equal(await codeOf(client.call('plugin.action.invoke', { action_id: 'write-note' })), 'ambiguous_plugin_action');
    assert.equal((await client.call('plugin.action.invoke', { action_id: 'test.twin.write-note' })).action.plugin_id, 'test.twin');
    assert.deepEqual((await client.call('plugin.action.list', {})).actions.map((a) => `${a.plugin_id}.${a.action_id}`), [
      'test.notes.fail', 'test.notes.list-workspaces', 'test.notes.windows-only', 'test.notes.write-note', 'test.twin.write-note',
    ]);
    await client.call('plugin.unlink', { plugin_id: 'test.twin' });

    // The log: oldest first, the newest `limit`, by plugin.
    const { logs } = await client.call('plugin.log.list', { plugin_id: 'test.notes' });
    assert.ok(logs.length >= 5 && logs.every((entry) => entry.plugin_id === 'test.notes'));
    assert.deepEqual((await client.call('plugin.log.list', { plugin_id: 'test.notes', limit: 1 })).logs.map((l) => l.log_id), [logs.at(-1)?.log_id]);
    assert.deepEqual((await client.call('plugin.log.list', { plugin_id: 'test.twin' })).logs.map((l) => l.action_id), ['write-note']);
  });

  it('opens its pane as a real pane running its command, focuses and closes it', async () => {
    const opened = await client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board' });
    assert.equal(opened.type, 'plugin_pane_opened');
    const { plugin_pane } = opened;
    assert.equal(plugin_pane.plugin_id, 'test.notes');
    assert.equal(plugin_pane.entrypoint, 'board');
    assert.equal(plugin_pane.pane.pane_id, 'w1:p2');
    assert.equal(plugin_pane.pane.label, 'Notes board');
    assert.equal(plugin_pane.pane.focused, false, 'a split opens without the focus unless asked');
    const text = await readUntil(server, 'w1:p2', (t) => t.includes('socket'));
    assert.match(text, new RegExp(`board of test\\.notes \\(board\\) in ${plugin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(text.includes(`pane w1:p2 socket ${server.currentSocketPath}`));
    // A pane like any other: listed, typed into.
    assert.ok((await client.pane.list()).panes.some((p) => p.pane_id === 'w1:p2'));
    await client.pane.sendText({ pane_id: 'w1:p2', text: 'echoed back\n' });
    await readUntil(server, 'w1:p2', (t) => t.split('echoed back').length > 2);

    const focused = await client.call('plugin.pane.focus', { pane_id: 'w1:p2' });
    assert.equal(focused.type, 'plugin_pane_focused');
    assert.equal(focused.plugin_pane.pane.focused, true);
    assert.equal(focused.plugin_pane.entrypoint, 'board');
    assert.equal(await codeOf(client.call('plugin.pane.focus', { pane_id: 'w1:p1' })), 'plugin_pane_not_found');
    assert.equal(await codeOf(client.call('plugin.pane.close', { pane_id: 'w9:p9' })), 'plugin_pane_not_found');
    assert.deepEqual(await client.call('plugin.pane.close', { pane_id: 'w1:p2' }), { type: 'plugin_pane_closed', pane_id: 'w1:p2' });
    assert.ok(!(await client.pane.list()).panes.some((p) => p.pane_id === 'w1:p2'));

    // In a tab of its own.
    const tabbed = await client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'tab', focus: true });
    assert.equal(tabbed.plugin_pane.pane.tab_id, 'w1:t2');
    assert.equal(tabbed.plugin_pane.pane.focused, true);
    await client.call('plugin.pane.close', { pane_id: tabbed.plugin_pane.pane.pane_id });
    // An overlay takes the focus and gives it back when it closes.
    await client.pane.split({ target_pane_id: 'w1:p1', direction: 'down' });
    await client.tab.focus({ tab_id: 'w1:t1' });
    const before = (await client.pane.list()).panes.find((p) => p.focused)?.pane_id;
    const overlay = await client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'overlay' });
    assert.equal(overlay.plugin_pane.pane.focused, true);
    await client.call('plugin.pane.close', { pane_id: overlay.plugin_pane.pane.pane_id });
    assert.equal((await client.pane.list()).panes.find((p) => p.focused)?.pane_id, before);
    // Zoomed: a split that takes the focus and fills its tab.
    const zoomed = await client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'zoomed', target_pane_id: 'w1:p1' });
    assert.equal(zoomed.plugin_pane.pane.focused, true);
    const { layout } = await client.call('pane.layout', { pane_id: zoomed.plugin_pane.pane.pane_id });
    assert.equal(layout.zoomed, true, 'the plugin pane fills its tab');
    await client.call('plugin.pane.close', { pane_id: zoomed.plugin_pane.pane.pane_id });
    assert.equal((await client.call('pane.layout', { pane_id: 'w1:p1' })).layout.zoomed, false, 'its close ends the zoom');
    // Split off a named pane, below it.
    const below = await client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', target_pane_id: 'w1:p1', direction: 'down', focus: true, env: { NOTE_COLOUR: 'green' } });
    assert.equal(below.plugin_pane.pane.focused, true);
    await client.call('plugin.pane.close', { pane_id: below.plugin_pane.pane.pane_id });

    // What a headless server cannot open, and requests that do not fit.
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'picker' })), 'unsupported');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'broken' })), 'plugin_pane_open_failed');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'nope' })), 'plugin_pane_not_found');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'a.b' })), 'invalid_plugin_entrypoint');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'nobody', entrypoint: 'board' })), 'plugin_not_found');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', width: 40 })), 'invalid_request');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'tab', direction: 'down' })), 'invalid_request');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'overlay', target_pane_id: 'w1:p1' })), 'invalid_request');
    assert.equal(await codeOf(client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', workspace_id: 'w1' })), 'invalid_request');
  });

  it('answers no_active_pane and no_active_workspace while no workspace is open', async () => {
    const empty = await startServer();
    const other = new HerdrClient({ socketPath: empty.currentSocketPath });
    try {
      await other.call('plugin.link', { path: plugin });
      assert.equal(await codeOf(other.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board' })), 'no_active_pane');
      assert.equal(await codeOf(other.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', placement: 'tab' })), 'no_active_workspace');
      // Without a workspace an action runs with an empty context: no HERDR_WORKSPACE_ID at all.
      const invoked = await other.call('plugin.action.invoke', { action_id: 'write-note' });
      assert.deepEqual(Object.keys(invoked.context).sort(), ['correlation_id', 'invocation_source']);
    } finally {
      other.close();
      await empty.stop();
    }
  });

  it('refuses a bad manifest with herdr\'s code and changes nothing', async () => {
    const listed = (await client.call('plugin.list', {})).plugins;
    const cases: Array<[string, string | (() => string)]> = [
      ['plugin_manifest_not_found', () => tempDir('herdr-empty-')],
      ['plugin_manifest_not_found', () => join(tempDir('herdr-empty-'), 'nowhere')],
      ['plugin_manifest_not_found', () => join(FIXTURE, 'board.sh')],
      // Not a manifest: a file past the 1 MiB a manifest may be.
      ['plugin_manifest_read_failed', `${HEAD}# ${'x'.repeat(1024 * 1024)}\n`],
      ['plugin_manifest_parse_failed', 'id = "t.bad\nname = "Bad"\n'],
      ['plugin_manifest_parse_failed', 'name = "Bad"\nversion = "1.0.0"\nmin_herdr_version = "0.7.0"\n'],
      ['plugin_manifest_parse_failed', HEAD.replace('"1.0.0"', '3')],
      ['plugin_manifest_parse_failed', HEAD.replace('["linux"]', '["beos"]')],
      ['plugin_manifest_parse_failed', `${HEAD}[[actions]]\nid = "a"\ntitle = "A"\ncontexts = ["everywhere"]\ncommand = ["true"]\n`],
      ['plugin_manifest_parse_failed', `${HEAD}[[panes]]\nid = "p"\ntitle = "P"\nplacement = "floating"\ncommand = ["true"]\n`],
      ['invalid_plugin_id', HEAD.replace('"t.bad"', '"has space"')],
      ['invalid_plugin_name', HEAD.replace('"Bad"', '"  "')],
      ['invalid_plugin_version', HEAD.replace('"1.0.0"', '""')],
      ['invalid_plugin_min_herdr_version', HEAD.replace('min_herdr_version = "0.7.0"\n', '')],
      ['invalid_plugin_min_herdr_version', HEAD.replace('"0.7.0"', '"soon"')],
      ['plugin_requires_newer_herdr', HEAD.replace('"0.7.0"', '"99.0.0"')],
      ['invalid_plugin_platform', HEAD.replace('["linux"]', '[]')],
      ['invalid_plugin_command', `${HEAD}[[actions]]\nid = "a"\ntitle = "A"\ncommand = []\n`],
      ['invalid_plugin_command', `${HEAD}[[startup]]\ncommand = ["sh", ""]\n`],
      ['invalid_plugin_action_id', `${HEAD}[[actions]]\nid = "a.b"\ntitle = "A"\ncommand = ["true"]\n`],
      ['invalid_plugin_action_title', `${HEAD}[[actions]]\nid = "a"\ntitle = " "\ncommand = ["true"]\n`],
      ['duplicate_plugin_action_id', `${HEAD}[[actions]]\nid = "a"\ntitle = "A"\ncommand = ["true"]\n[[actions]]\nid = "a"\ntitle = "B"\ncommand = ["true"]\n`],
      ['invalid_plugin_pane_id', `${HEAD}[[panes]]\nid = "p q"\ntitle = "P"\ncommand = ["true"]\n`],
      ['invalid_plugin_pane_title', `${HEAD}[[panes]]\nid = "p"\ntitle = ""\ncommand = ["true"]\n`],
      ['invalid_plugin_pane_size', `${HEAD}[[panes]]\nid = "p"\ntitle = "P"\nplacement = "split"\nwidth = 40\ncommand = ["true"]\n`],
      ['duplicate_plugin_pane_id', `${HEAD}[[panes]]\nid = "p"\ntitle = "P"\ncommand = ["true"]\n[[panes]]\nid = "p"\ntitle = "Q"\ncommand = ["true"]\n`],
      ['invalid_plugin_event', `${HEAD}[[events]]\non = " "\ncommand = ["true"]\n`],
      ['invalid_plugin_link_handler_id', `${HEAD}[[link_handlers]]\nid = "l.x"\ntitle = "L"\npattern = "x"\naction = "a"\n`],
      ['invalid_plugin_link_handler_title', `${HEAD}[[link_handlers]]\nid = "l"\ntitle = ""\npattern = "x"\naction = "a"\n`],
      ['invalid_plugin_link_handler_pattern', `${HEAD}[[link_handlers]]\nid = "l"\ntitle = "L"\npattern = "(unclosed"\naction = "a"\n`],
      ['invalid_plugin_link_handler_action', `${HEAD}[[link_handlers]]\nid = "l"\ntitle = "L"\npattern = "x"\naction = "missing"\n`],
      ['duplicate_plugin_link_handler_id', `${HEAD}[[actions]]\nid = "a"\ntitle = "A"\ncommand = ["true"]\n[[link_handlers]]\nid = "l"\ntitle = "L"\npattern = "x"\naction = "a"\n[[link_handlers]]\nid = "l"\ntitle = "M"\npattern = "y"\naction = "a"\n`],
    ];
    for (const [code, manifest] of cases) {
      const path = typeof manifest === 'function' ? manifest() : manifestDir(manifest);
      const answer = await client.call('plugin.link', { path }).then(
        () => undefined,
        (error: { code: string; message: string }) => error,
      );
      assert.equal(answer?.code, code, `${code}: ${typeof manifest === 'string' ? manifest : path}`);
      assert.ok((answer?.message.length ?? 0) > 10, `${code} says why: ${answer?.message}`);
    }
    assert.equal(await codeOf(client.call('plugin.link', { path: plugin, source: { kind: 'github', owner: 'o', repo: 'r' } })), 'invalid_plugin_source');
    assert.deepEqual((await client.call('plugin.list', {})).plugins, listed, 'no refusal changed the list');

    // Keys herdr does not know are ignored, as herdr ignores them; unknown event names and undeclared platforms warn.
    const lenient = manifestDir(
      'id = "t.lenient"\nname = "Lenient"\nversion = "1.0.0"\nmin_herdr_version = "v0.8.2"\nhomepage = "https://example.invalid"\n\n' +
        '[[actions]]\nid = "a"\ntitle = "A"\nicon = "star"\ncommand = ["true"]\n\n[[events]]\non = "nothing.happened"\ncommand = ["true"]\n',
    );
    const { plugin: linked } = await client.call('plugin.link', { path: lenient });
    assert.equal(linked.min_herdr_version, '0.8.2');
    assert.deepEqual(linked.actions, [{ id: 'a', title: 'A', command: ['true'] }]);
    assert.deepEqual(linked.warnings, ["unknown event 'nothing.happened'", 'manifest does not declare platforms; platform support unknown']);
    await client.call('plugin.unlink', { plugin_id: 't.lenient' });
  });

  it('keeps its plugins across a restart, runs their startup hooks, and says when a manifest went', async () => {
    const dir = join(tempDir('herdr-plugin-restart-'), 'state');
    const copy = pluginCopy();
    const first = await startServer({ stateDir: dir });
    try {
      await first.call('plugin.link', { path: copy });
      await first.call('plugin.disable', { plugin_id: 'test.notes' });
      await first.call('plugin.enable', { plugin_id: 'test.notes' });
    } finally {
      await first.stop();
    }
    const second = await startServer({ stateDir: dir });
    const again = new HerdrClient({ socketPath: second.currentSocketPath });
    try {
      assert.deepEqual((await again.call('plugin.list', {})).plugins.map((p) => [p.plugin_id, p.enabled]), [['test.notes', true]]);
      // [[startup]] ran once the server listened, with HERDR_PLUGIN_EVENT=startup.
      const startup = await eventually(async () => (await again.call('plugin.log.list', {})).logs.find((l) => l.event === 'startup' && l.status !== 'running'), 'the startup hook');
      assert.equal(startup.status, 'succeeded', startup.stderr);
      assert.deepEqual(startup.command, ['sh', 'write-note.sh', 'startup']);
      assert.equal(note(join(dir, 'plugins', 'state', 'test.notes'), 'startup').event, 'startup');

      // The manifest went: the entry stays, says so, and runs nothing.
      rmSync(join(copy, 'herdr-plugin.toml'));
      const [gone] = (await again.call('plugin.list', {})).plugins;
      assert.match(gone?.warnings?.[0] ?? '', /^manifest unavailable: /);
      assert.deepEqual((await again.call('plugin.action.list', {})).actions, []);
      assert.equal(await codeOf(again.call('plugin.action.invoke', { plugin_id: 'test.notes', action_id: 'write-note' })), 'plugin_manifest_unavailable');
      assert.equal(await codeOf(again.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board' })), 'plugin_manifest_unavailable');
      // Back again: in use at once.
      cpSync(join(FIXTURE, 'herdr-plugin.toml'), join(copy, 'herdr-plugin.toml'));
      assert.equal((await again.call('plugin.list', {})).plugins[0]?.warnings, undefined);

      // A plugins.json that is not one: reads say so, changes are refused, the file is left for the user.
      const registry = join(dir, 'plugins.json');
      const kept = readFileSync(registry, 'utf8');
      writeFileSync(registry, '{ not json');
      assert.equal(await codeOf(again.call('plugin.list', {})), 'plugin_registry_load_failed');
      assert.equal(await codeOf(again.call('plugin.enable', { plugin_id: 'test.notes' })), 'plugin_registry_save_failed');
      assert.equal(readFileSync(registry, 'utf8'), '{ not json');
      writeFileSync(registry, kept);
      // The plugins' directories cannot be made.
      rmSync(join(dir, 'plugins'), { recursive: true });
      writeFileSync(join(dir, 'plugins'), 'a file where a directory should be');
      assert.equal(await codeOf(again.call('plugin.action.invoke', { action_id: 'write-note' })), 'plugin_user_dir_create_failed');
      rmSync(join(dir, 'plugins'));
      mkdirSync(join(dir, 'plugins'));
    } finally {
      again.close();
      await second.stop();
    }
  });

  it('runs at most 32 commands at once; the one refused is in the log', async () => {
    const slow = manifestDir('id = "test.slow"\nname = "Slow"\nversion = "1.0.0"\nmin_herdr_version = "0.7.0"\nplatforms = ["linux"]\n\n[[actions]]\nid = "nap"\ntitle = "Nap"\ncommand = ["sleep", "2"]\n');
    await client.call('plugin.link', { path: slow });
    try {
      for (let i = 0; i < 32; i++) await client.call('plugin.action.invoke', { plugin_id: 'test.slow', action_id: 'nap' });
      assert.equal(await codeOf(client.call('plugin.action.invoke', { plugin_id: 'test.slow', action_id: 'nap' })), 'plugin_command_limit_reached');
      const refused = (await client.call('plugin.log.list', { plugin_id: 'test.slow', limit: 200 })).logs.at(-1);
      assert.equal(refused?.status, 'failed');
      assert.match(refused?.error ?? '', /32/);
      // Once they ended, commands run again.
      await eventually(async () => (await client.call('plugin.log.list', { plugin_id: 'test.slow', limit: 200 })).logs.every((l) => l.status !== 'running'), 'the naps to end', 15_000);
      const next = await client.call('plugin.action.invoke', { plugin_id: 'test.slow', action_id: 'nap' });
      assert.equal(next.log.status, 'running');
    } finally {
      await client.call('plugin.unlink', { plugin_id: 'test.slow' });
    }
  });

  it('is driven by herdr\'s `plugin` CLI commands', async () => {
    const cli = herdrCli(server);
    const lines = async (...args: string[]) => JSON.parse((await cli(...args)).stdout) as { result: Record<string, any> };
    await cli('plugin', 'unlink', 'test.notes');
    assert.equal((await lines('plugin', 'link', plugin, '--disabled')).result.plugin.enabled, false);
    assert.equal((await lines('plugin', 'enable', 'test.notes')).result.plugin.enabled, true);
    assert.equal((await lines('plugin', 'list', '--json')).result.plugins[0].plugin_id, 'test.notes');
    assert.equal((await lines('plugin', 'action', 'list', '--plugin', 'test.notes')).result.actions.length, 4);
    const invoked = await lines('plugin', 'action', 'invoke', 'write-note', '--plugin', 'test.notes');
    assert.equal(invoked.result.context.invocation_source, 'cli');
    const opened = await lines('plugin', 'pane', 'open', '--plugin', 'test.notes', '--entrypoint', 'board', '--placement', 'tab', '--env', 'A=b');
    const paneId = opened.result.plugin_pane.pane.stable_id as string;
    assert.equal((await lines('plugin', 'pane', 'focus', paneId)).result.plugin_pane.pane.focused, true);
    assert.equal((await lines('plugin', 'pane', 'close', paneId)).result.type, 'plugin_pane_closed');
    assert.ok((await lines('plugin', 'log', 'list', '--plugin', 'test.notes', '--limit', '2')).result.logs.length <= 2);
    assert.equal((await lines('plugin', 'disable', 'test.notes')).result.plugin.enabled, false);
    assert.equal((await lines('plugin', 'unlink', 'test.notes')).result.removed, true);
    await assert.rejects(cli('plugin', 'enable', 'test.notes'), (error: { stderr: string }) => /plugin_not_found|no plugin/.test(error.stderr));
  });
});
