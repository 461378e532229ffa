/**
 * herdr's agent manifests (docs/protocol.md §10.8): an agent no built-in table knows, described
 * by a user's manifest in herdr's format, is detected and read exactly like a built-in one; a
 * manifest for a built-in agent replaces its rules; `server.agent_manifests` lists them beside
 * the built-in tables; `server.reload_agent_manifests` applies an edit without a restart, and
 * refuses a bad file by name while the manifests in use keep working.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ManifestError, parseAgentManifest, parseRegion, re2Source } from '../src/protocol/agent-manifest.js';
import { regionText } from '../src/workers/agents/screen-regions.js';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, codeOf, eventually, herdrCli, oneAnswer, startServer, tempDir } from './helpers/server.js';

const AGENT_DIR = join(REPO_ROOT, 'test', 'fixtures', 'manifest-agent');
const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');

/** burrow's screens as its first manifest knows them: the menu is blocked, the digging spinner working, its prompt box idle, anything else unknown. */
const BURROW_V1 = `id = "burrow"
version = "1.0.0"
min_engine_version = 3
aliases = ["burrow-cli"]

[[rules]]
id = "dig_menu"
state = "blocked"
priority = 300
visible_blocker = true
all = [{ contains = ["Allow digging?"] }, { line_regex = ['^▸ \\d+\\. '] }]

[[rules]]
id = "digging"
state = "working"
priority = 200
line_regex = ['^[⠋⠙⠹⠸] Digging…']

# Written last but decides after the menu only: priority, not order, ranks the rules.
[[rules]]
id = "prompt_box"
state = "idle"
priority = 100
region = "prompt_box_body"
line_regex = ['^burrow>']

# herdr reads a screen no rule reads as idle; this one says unknown instead: a prompt then waits.
[[rules]]
id = "anything_else"
state = "unknown"
priority = -1000
regex = ['']
`;

/** The next version: its spinner also says "Tunnelling…". */
const BURROW_V2 = BURROW_V1.replace('version = "1.0.0"', 'version = "1.1.0"').replace("'^[⠋⠙⠹⠸] Digging…'", "'^[⠋⠙⠹⠸] (?:Digging|Tunnelling)…'");

/** The fake amp always shows "Esc to cancel" (the built-in table: working); this override reads its tool line as blocked. */
const AMP_OVERRIDE = `id = "amp"
version = "9.9.9"

[[rules]]
id = "tools_waiting"
state = "blocked"
contains = ["running tools"]
`;

/** A server reading its manifests from a directory of the test's own, made before it starts. */
async function withServer(files: Record<string, string>, run: (server: TestServer, dir: string) => Promise<void>): Promise<void> {
  const root = tempDir('herdr-manifests-');
  const dir = join(root, 'agent-detection');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const server = await startServer({ env: { PATH: `${AGENT_DIR}:${FAKE_AGENTS}:${process.env.PATH}` }, serverArgs: ['--agent-manifests', dir] });
  try {
    await run(server, dir);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const stateOf = async (server: TestServer, paneId: string) => {
  const { pane } = await server.call('pane.get', { pane_id: paneId });
  return { agent: pane.agent, state: pane.agent_state };
};

const cue = (server: TestServer, paneId: string, text: string) => server.call('pane.send_text', { pane_id: paneId, text: `${text}\n` });

function becomes(server: TestServer, paneId: string, state: string, what: string) {
  return eventually(async () => (await stateOf(server, paneId)).state === state || undefined, what);
}

describe('agent manifests', () => {
  it('an agent no table knows, described by a manifest, is detected and its states follow its screen as a built-in agent\'s do', async () => {
    await withServer({ 'burrow.toml': BURROW_V1 }, async (server, dir) => {
      const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_detected' }, { type: 'pane.agent_state_changed' }] });
      const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['burrow'] });
      const paneId = `${workspace.workspace_id}-1`;
      await eventually(async () => (await server.call('agent.list', {})).agents.find((agent) => agent.pane_id === paneId && agent.agent === 'burrow' && agent.agent_state === 'idle'), 'burrow listed, idle at its prompt box');

      await cue(server, paneId, 'work');
      await becomes(server, paneId, 'working', 'its spinner read as working');
      await cue(server, paneId, 'ask');
      await becomes(server, paneId, 'blocked', 'its menu read as blocked');
      const listed = (await server.call('agent.list', {})).agents.find((agent) => agent.pane_id === paneId);
      assert.equal(listed?.agent_state, 'blocked');
      const { explain } = await server.call('agent.explain', { target: paneId });
      assert.equal(explain.decided_by, 'screen');
      assert.deepEqual(explain.screen?.rules.map((rule) => [rule.condition.split(':')[0], rule.state, rule.matched]), [
        ['dig_menu', 'blocked', true],
        ['digging', 'working', false],
        ['prompt_box', 'idle', false],
        ['anything_else', 'unknown', true],
      ]);
      await cue(server, paneId, 'idle');
      await becomes(server, paneId, 'idle', 'its prompt box again: idle');

      const seen = await events.until((lines) => lines.filter((line) => line.event === 'pane.agent_state_changed').length >= 4, 'four state changes');
      const detected = seen.find((line) => line.event === 'pane_agent_detected');
      assert.equal((detected?.data as { agent?: string }).agent, 'burrow');
      assert.ok(seen.indexOf(detected as (typeof seen)[number]) < seen.findIndex((line) => line.event === 'pane.agent_state_changed'), 'detected before its first state');
      const states = seen.flatMap((line) => (line.event === 'pane.agent_state_changed' ? [(line.data as { state: string; agent?: string }).state] : []));
      assert.deepEqual(states.filter((state, i) => state !== states[i - 1]), ['idle', 'working', 'blocked', 'idle']);
      for (const line of seen) if (line.event === 'pane.agent_state_changed') assert.equal((line.data as { agent?: string }).agent, 'burrow');
      events.close();

      // Listed beside the built-in tables, as herdr lists its manifests.
      const status = await server.call('server.agent_manifests', {});
      assert.equal(status.type, 'agent_manifest_status');
      assert.equal(status.directory, dir);
      assert.deepEqual(status.manifests.find((info) => info.agent === 'burrow'), {
        agent: 'burrow',
        source: join(dir, 'burrow.toml'),
        source_kind: 'local',
        active_version: '1.0.0',
        local_override_shadowing_remote: false,
        process_names: ['burrow', 'burrow-cli'],
        rules: 4,
      });
      const claude = status.manifests.find((info) => info.agent === 'claude');
      assert.equal(claude?.source, 'bundled');
      assert.equal(claude?.source_kind, 'bundled');
      assert.ok(status.manifests.filter((info) => info.source_kind === 'bundled').length >= 15, 'the built-in tables with screen rules');
      // herdr's current protocol: the same answer, herdr's fields.
      const current = await oneAnswer(server.currentSocketPath, { id: 'm', method: 'server.agent_manifests', params: {} });
      assert.equal(current.result.type, 'agent_manifest_status');
      for (const info of current.result.manifests as Array<Record<string, unknown>>) {
        assert.equal(typeof info.agent, 'string');
        assert.equal(typeof info.source, 'string');
        assert.equal(typeof info.source_kind, 'string');
        assert.equal(info.local_override_shadowing_remote, false);
      }
    });
  });

  it('a changed manifest is used after server.reload_agent_manifests, without a restart; a bad one is refused by name and the set in use goes on', async () => {
    await withServer({ 'burrow.toml': BURROW_V1 }, async (server, dir) => {
      const file = join(dir, 'burrow.toml');
      const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['burrow'] });
      const paneId = `${workspace.workspace_id}-1`;
      await becomes(server, paneId, 'idle', 'burrow idle');
      // A cue the first manifest does not know: only its catch-all reads it, so its state is unknown, not a guess.
      await cue(server, paneId, 'tunnel');
      await becomes(server, paneId, 'unknown', 'tunnelling: no rule of v1 reads it');

      writeFileSync(file, BURROW_V2);
      const reloaded = await server.call('server.reload_agent_manifests', {});
      assert.equal(reloaded.type, 'agent_manifest_reload');
      assert.equal(reloaded.manifests.find((info) => info.agent === 'burrow')?.active_version, '1.1.0');
      await becomes(server, paneId, 'working', 'tunnelling read as working by v2, the same process, no restart');

      // A pattern RE2 does not take: refused, naming the file and why; v2 stays in use.
      writeFileSync(file, BURROW_V2.replace("'^burrow>'", "'^burrow>('"));
      const refused = await server.request('server.reload_agent_manifests', {});
      assert.ok('error' in refused);
      assert.equal(refused.error.code, 'invalid_agent_manifest');
      assert.ok(refused.error.message.startsWith(`${file}: `), refused.error.message);
      assert.match(refused.error.message, /rule "prompt_box".*line_regex.*RE2/);
      assert.match(refused.error.message, /the manifests in use did not change/);
      const after = (await server.call('server.agent_manifests', {})).manifests.find((info) => info.agent === 'burrow');
      assert.equal(after?.active_version, '1.1.0', 'the set in use is the one before');
      assert.match(after?.warning ?? '', new RegExp(`${file} is not in use: rule "prompt_box"`));
      await cue(server, paneId, 'ask');
      await becomes(server, paneId, 'blocked', 'the menu still read as blocked');
      await cue(server, paneId, 'tunnel');
      await becomes(server, paneId, 'working', "v2's cue still used");

      // Not TOML at all, and two files giving one agent the same name: both refused by name too.
      writeFileSync(file, 'id = "burrow"\nrules = [\n');
      const notToml = await server.request('server.reload_agent_manifests', {});
      assert.ok('error' in notToml);
      assert.match(notToml.error.message, new RegExp(`^${file}: not TOML: line \\d+`));
      writeFileSync(file, BURROW_V2);
      writeFileSync(join(dir, 'burrow-cli.toml'), BURROW_V2.replace('id = "burrow"', 'id = "burrow-cli"').replace('aliases = ["burrow-cli"]', 'aliases = ["burrow"]'));
      const twice = await server.request('server.reload_agent_manifests', {});
      assert.ok('error' in twice);
      assert.equal(twice.error.code, 'invalid_agent_manifest');
      assert.match(twice.error.message, /burrow\.toml: .*burrow-cli\.toml gives the name|burrow-cli\.toml: .*burrow\.toml gives the name/);

      // The CLI: herdr's commands, a bad file the same one-line refusal.
      const herdr = herdrCli(server);
      await assert.rejects(herdr('server', 'reload-agent-manifests'), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr ?? '', /invalid_agent_manifest/);
        return true;
      });
      const { stdout } = await herdr('server', 'agent-manifests', '--json');
      const printed = JSON.parse(stdout) as { result: { manifests: Array<{ agent: string; active_version?: string }> } };
      assert.equal(printed.result.manifests.find((info) => info.agent === 'burrow')?.active_version, '1.1.0');
    });
  });

  it('a manifest for an agent herdr knows replaces its screen rules, keeping its process names', async () => {
    await withServer({ 'amp.toml': AMP_OVERRIDE }, async (server, dir) => {
      const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['amp'] });
      const paneId = `${workspace.workspace_id}-1`;
      await eventually(async () => {
        const now = await stateOf(server, paneId);
        return now.agent === 'amp' && now.state === 'blocked' ? now : undefined;
      }, 'amp read by the override: blocked, not the built-in working');
      const amp = (await server.call('server.agent_manifests', {})).manifests.find((info) => info.agent === 'amp');
      assert.deepEqual(amp, {
        agent: 'amp',
        source: join(dir, 'amp.toml'),
        source_kind: 'local override',
        active_version: '9.9.9',
        local_override_shadowing_remote: false,
        process_names: ['amp', 'amp-local'],
        rules: 1,
      });
      // Taken away again: the built-in rules are back at the reload.
      writeFileSync(join(dir, 'amp.toml'), '');
      assert.equal(await codeOf(server.call('server.reload_agent_manifests', {})), 'invalid_agent_manifest');
      rmSync(join(dir, 'amp.toml'));
      const back = await server.call('server.reload_agent_manifests', {});
      assert.equal(back.manifests.find((info) => info.agent === 'amp')?.source, 'bundled');
      await becomes(server, paneId, 'working', 'the built-in rules again: working');
    });
  });

  it('server.reload_config says plainly that there is no configuration file and nothing was reloaded', async () => {
    await withServer({}, async (server) => {
      const answer = await server.call('server.reload_config', {});
      assert.equal(answer.type, 'config_reload');
      assert.equal(answer.status, 'failed');
      assert.match(answer.diagnostics[0] ?? '', /reads no configuration file, so nothing was reloaded/);
      const current = await oneAnswer(server.currentSocketPath, { id: 'c', method: 'server.reload_config', params: {} });
      assert.deepEqual(current.result, answer);
    });
  });
});

describe('manifest regions and checks (the pure parts)', () => {
  const region = (spec: string) => {
    const parsed = parseRegion(spec);
    assert.ok(parsed, `${spec} is a region`);
    return parsed;
  };
  const screen = ['title', '', 'answer one', '• Ran ls', '  file', '› fix it', '', '  gpt · ~/x', '', ''].join('\n');

  it('cut the screen as herdr names them, the empty rows below its text in none', () => {
    assert.equal(regionText(region('bottom_lines(2)'), screen, ''), '\n  gpt · ~/x');
    assert.equal(regionText(region('bottom_non_empty_lines(2)'), screen, ''), '› fix it\n\n  gpt · ~/x');
    assert.equal(regionText(region('top_non_empty_lines(2)'), screen, ''), 'title\n\nanswer one');
    assert.equal(regionText(region('before_current_prompt_marker'), screen, ''), 'title\n\nanswer one\n• Ran ls\n  file');
    assert.equal(regionText(region('current_prompt_block_marker'), screen, ''), '• Ran ls');
    assert.equal(regionText(region('after_last_prompt_marker'), screen, ''), '\n  gpt · ~/x');
    assert.equal(regionText(region('whole_recent_without_current_prompt_marker'), screen, ''), '');
    assert.equal(regionText(region('osc_title'), screen, '✦ Working'), '✦ Working');
    const boxed = ['✻ Thinking…', '', '──────── caption', '❯ typed', '────────', '  ? for shortcuts'].join('\n');
    assert.equal(regionText(region('above_prompt_box'), boxed, ''), '✻ Thinking…\n');
    assert.equal(regionText(region('last_non_empty_above_prompt_box'), boxed, ''), '✻ Thinking…');
    assert.equal(regionText(region('prompt_box_body'), boxed, ''), '❯ typed');
    assert.equal(regionText(region('after_last_horizontal_rule'), boxed, ''), '  ? for shortcuts');
    assert.equal(parseRegion('top_non_empty_lines(0)'), undefined);
    assert.equal(parseRegion('middle_lines(3)'), undefined);
  });

  it('refuse what herdr refuses, with the reason', () => {
    const refused = (text: string) => {
      try {
        parseAgentManifest(text);
      } catch (error) {
        assert.ok(error instanceof ManifestError);
        return error.message;
      }
      assert.fail('accepted');
    };
    assert.match(refused('id = "x"\n'), /no rules/);
    assert.match(refused('id = "x"\ncolour = "red"\n[[rules]]\nid = "a"\ncontains = ["b"]\n'), /Unrecognized key/);
    assert.match(refused('id = "x"\n[[rules]]\nid = "a"\nstate = "idle"\nskip_state_update = true\ncontains = ["b"]\n'), /skip_state_update needs state = "unknown"/);
    assert.match(refused('id = "x"\n[[rules]]\nid = "a"\nnot = [{ contains = ["b"] }]\n'), /no matcher that must hold/);
    assert.match(refused('id = "x"\nmin_engine_version = 4\n[[rules]]\nid = "a"\ncontains = ["b"]\n'), /engine 4; this server has engine 3/);
    assert.match(refused(`id = "x"\n[[rules]]\nid = "a"\ncontains = [${Array.from({ length: 33 }, () => '"b"').join(', ')}]\n`), /33 matchers \(at most 32/);
    assert.match(refused('id = "x"\n[[rules]]\nid = "a"\nline_regex = [\'(a)\\1\']\n'), /not a pattern RE2 takes/);
    // herdr's own manifests write \p{Alphabetic}, which RE2 spells otherwise.
    assert.equal(re2Source('^\\s+\\p{Alphabetic}+ing'), '^\\s+[\\p{L}\\p{Nl}]+ing');
    assert.equal(parseAgentManifest("id = \"x\"\n[[rules]]\nid = \"a\"\nline_regex = ['^[⠋\\p{Alphabetic}]']\n").rules[0]?.line_regex[0], '^[⠋\\p{Alphabetic}]');
  });
});
