/**
 * `herdr integration install|uninstall|status` and `integration.*` (docs/protocol.md §13.9,
 * docs/agents.md "Integrations") against a real server, into homes of the test's own: each CLI's
 * hooks written beside the user's own, installing twice is installing once, every edited file
 * backed up first, uninstall puts every file back as it was, bad files and unknown targets refused
 * with nothing written; and `herdr hook`, which those hooks run, reporting for its pane.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { INSTALLABLE_TARGETS } from '../src/protocol/integration-targets.js';
import { HERDR_BIN, type TestServer, codeOf, eventually, herdrCli, newWorkspace, promptShown, startServer, tempDir } from './helpers/server.js';

const run = promisify(execFile);

/** What a user already had, for each CLI: the files herdr must leave as they were after uninstall. */
function userFiles(home: string): Map<string, string> {
  const files = new Map<string, string>([
    [join(home, '.claude', 'settings.json'), JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: '/usr/local/bin/my-stop-hook' }] }] } }, null, 2)],
    [join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } } }, null, 2)],
    [join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks: { AfterAgent: [{ hooks: [{ name: 'mine', type: 'command', command: 'notify-send done' }] }] } }, null, 2)],
    [join(home, '.codex', 'config.toml'), 'model = "gpt-5.5"\n\n[features]\nhooks = false\nplugins = false\n'],
    [join(home, '.codex', 'hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } }, null, 2)],
  ]);
  for (const [path, text] of files) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  return files;
}

describe('herdr integration', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('installs each CLI\'s hooks beside the user\'s own, once, with a backup; uninstall puts every file back as it was', async () => {
    const home = tempDir('herdr-integration-home-');
    const before = userFiles(home);
    for (const target of INSTALLABLE_TARGETS) {
      const installed = await server.call('integration.install', { target, home });
      assert.equal(installed.type, 'integration_install');
      assert.ok(installed.details.messages.some((message) => message.startsWith('wrote ')), `${target}: ${JSON.stringify(installed.details.messages)}`);
      // Twice is once: nothing changes, and says so.
      const mtimes = (await server.call('integration.list', { home })).integrations.find((entry) => entry.target === target)?.files.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs);
      const again = await server.call('integration.install', { target, home });
      assert.deepEqual(again.details.messages, [`${target}: already installed, nothing changed`]);
      const after = (await server.call('integration.list', { home })).integrations.find((entry) => entry.target === target);
      assert.deepEqual(after?.files.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs), mtimes);
      assert.equal(after?.installed, true);
      assert.equal(after?.version, after?.current_version);
    }
    // The user's own hooks are still there, herdr's beside them; the file as it was is in the backup.
    const claude = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    assert.equal(claude.model, 'opus');
    assert.ok(JSON.stringify(claude.hooks.Stop).includes('/usr/local/bin/my-stop-hook'));
    assert.ok(JSON.stringify(claude.hooks.Stop).includes('herdr-agent-state.sh'));
    assert.ok(JSON.stringify(claude.hooks.SessionStart).includes('herdr-agent-state.sh Session'));
    assert.equal(readFileSync(join(home, '.claude', 'settings.json.herdr-backup'), 'utf8'), before.get(join(home, '.claude', 'settings.json')));
    const toml = readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
    assert.match(toml, /^hooks = true # herdr-integration \(was: hooks = false\)$/m);
    assert.match(toml, /^daemon_auto_start = false # herdr-integration$/m);
    assert.ok(statSync(join(home, '.claude', 'hooks', 'herdr-agent-state.sh')).mode & 0o100, 'the hook script is executable');
    assert.ok(existsSync(join(home, '.config', 'opencode', 'plugins', 'herdr-agent-state.js')));
    assert.ok(existsSync(join(home, '.pi', 'agent', 'extensions', 'herdr-agent-state.ts')));

    for (const target of INSTALLABLE_TARGETS) await server.call('integration.uninstall', { target, home });
    for (const [path, text] of before) {
      const now = readFileSync(path, 'utf8');
      if (path.endsWith('.json')) assert.deepEqual(JSON.parse(now), JSON.parse(text), path);
      else assert.equal(now, text, path);
    }
    const list = await server.call('integration.list', { home });
    assert.deepEqual(list.integrations.map((entry) => [entry.target, entry.installed]), INSTALLABLE_TARGETS.map((target) => [target, false]));
    assert.equal(existsSync(join(home, '.claude', 'hooks', 'herdr-agent-state.sh')), false);
    assert.deepEqual((await server.call('integration.uninstall', { target: 'claude', home })).details.messages, ['claude: not installed, nothing changed']);
  });

  it('refuses a settings file that is not JSON, and a CLI it has no integration for, writing nothing', async () => {
    const home = tempDir('herdr-integration-bad-');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"model": "opus",');
    assert.equal(await codeOf(server.call('integration.install', { target: 'claude', home })), 'integration_failed');
    assert.equal(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'), '{"model": "opus",');
    assert.equal(existsSync(join(home, '.claude', 'settings.json.herdr-backup')), false);
    assert.equal(await codeOf(server.call('integration.install', { target: 'grok', home })), 'integration_unsupported');
    assert.equal(await codeOf(server.call('integration.install', { target: 'nope' as 'grok', home })), 'invalid_request');
    // The control: the same home takes an integration herdr has.
    await server.call('integration.install', { target: 'gemini', home });
    assert.ok(existsSync(join(home, '.gemini', 'hooks', 'herdr-agent-state.sh')));
  });

  it('the CLI: install and status through the server, and right here when no server runs', async () => {
    const home = tempDir('herdr-integration-cli-');
    const herdr = herdrCli(server);
    const { stdout } = await herdr('integration', 'install', 'qwen', '--home', home, '--json');
    assert.equal(JSON.parse(stdout).type, 'integration_install');
    const status = JSON.parse((await herdr('integration', 'status', 'qwen', '--home', home, '--json')).stdout);
    assert.deepEqual(status.integrations.map((entry: { target: string; installed: boolean }) => [entry.target, entry.installed]), [['qwen', true]]);
    // No server at this socket: done here, the same way.
    const alone = await run(process.execPath, [HERDR_BIN, 'integration', 'install', 'pi', '--home', home, '--socket', join(home, 'none.sock'), '--json']);
    assert.equal(JSON.parse(alone.stdout).type, 'integration_install');
    assert.ok(existsSync(join(home, '.pi', 'agent', 'extensions', 'herdr-agent-state.ts')));
  });

  it('herdr hook reports the event for the pane it runs in: state, session, release; outside herdr it does nothing', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    const env = { ...process.env, HERDR_ENV: '1', HERDR_PANE_ID: pane.stable_id ?? paneId, HERDR_SOCKET_PATH: server.socketPath };
    const hook = (event: string, payload: object, extra: Record<string, string> = {}) =>
      new Promise<void>((resolve, reject) => {
        const child = execFile(process.execPath, [HERDR_BIN, 'hook', 'claude', event], { env: { ...env, ...extra } }, (error) => (error ? reject(error) : resolve()));
        child.stdin?.end(JSON.stringify(payload));
      });
    await hook('SessionStart', { session_id: 'sess-42', transcript_path: '/tmp/sess-42.jsonl', source: 'startup' });
    await hook('UserPromptSubmit', { session_id: 'sess-42', prompt: 'hi' });
    let now = await eventually(async () => {
      const seen = (await server.call('pane.get', { pane_id: paneId })).pane;
      return seen.agent_state === 'working' && seen;
    }, 'the hook\'s working');
    assert.equal(now.agent, 'claude');
    assert.equal(now.agent_source, 'hook');
    assert.equal(now.agent_session?.id, 'sess-42');
    await hook('Notification', { session_id: 'sess-42', notification_type: 'permission_prompt', message: 'Claude needs your permission to use Bash' });
    now = await eventually(async () => {
      const seen = (await server.call('pane.get', { pane_id: paneId })).pane;
      return seen.agent_state === 'blocked' && seen;
    }, 'the hook\'s blocked');
    await hook('Stop', { session_id: 'sess-42' });
    await eventually(async () => (await server.call('pane.get', { pane_id: paneId })).pane.agent_state === 'idle', 'the hook\'s idle');
    // An event it does not know means nothing, even one named like an object's own property.
    for (const unknown of ['constructor', 'toString', 'NoSuchEvent']) await hook(unknown, { session_id: 'sess-42' });
    // An event from before the last one (its seq smaller) changes nothing.
    await hook('UserPromptSubmit', { session_id: 'sess-42' }, { HERDR_HOOK_SEQ: '1000000000000000000' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await server.call('pane.get', { pane_id: paneId })).pane.agent_state, 'idle');
    await hook('SessionEnd', { session_id: 'sess-42' });
    await eventually(async () => (await server.call('pane.get', { pane_id: paneId })).pane.agent_source !== 'hook', 'the release');
    // Outside herdr: nothing reported, exit 0 all the same.
    await hook('UserPromptSubmit', {}, { HERDR_ENV: '' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.notEqual((await server.call('pane.get', { pane_id: paneId })).pane.agent_state, 'working');
  });
});
