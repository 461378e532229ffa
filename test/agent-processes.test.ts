/**
 * docs/protocol.md §10.1 through real processes: npm-installed agents as npm lays them out
 * (a `node_modules/.bin` symlink to the package's `#!/usr/bin/env node` script), started
 * in a pane by the shell, as the shim and by their script's own path; a program's title.
 *
 * With HERDR_REAL_AGENTS=<folder> (one `npm i --prefix <folder>/<agent>` per agent, as
 * test/fixtures/screens/README.md says), the real CLIs found there are started too, with
 * an empty HOME, and must be detected and read blocked or idle by their screen rules.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PaneInfo } from '../src/protocol/objects.js';
import { type TestServer, eventually, newWorkspace, promptShown, startServer, tempDir } from './helpers/server.js';

/** Each agent's package and the path of its bin script in it, as the published packages have them. */
const PACKAGES: Array<{ agent: string; bin: string; pkg: string; script: string }> = [
  { agent: 'qwen', bin: 'qwen', pkg: '@qwen-code/qwen-code', script: 'cli.js' },
  { agent: 'letta', bin: 'letta', pkg: '@letta-ai/letta-code', script: 'letta.js' },
  { agent: 'kilo', bin: 'kilo', pkg: '@kilocode/cli', script: 'bin/kilo' },
  { agent: 'mastracode', bin: 'mastracode', pkg: 'mastracode', script: 'dist/cli.js' },
  { agent: 'qodercli', bin: 'qodercli', pkg: '@qoder-ai/qodercli', script: 'bundle/qodercli.js' },
];

/** A stand-in script: says it runs, then waits (a node process the whole time). */
const SCRIPT = "#!/usr/bin/env node\nconsole.log('stand-in ready');\nsetInterval(() => {}, 1000);\n";

let server: TestServer;
let prefix: string;
/** Folders the tests made, removed at the end (a real CLI's update may fill its HOME). */
const made: string[] = [];
const scratch = (name: string) => {
  const dir = tempDir(name);
  made.push(dir);
  return dir;
};

const paneOf = async (paneId: string): Promise<PaneInfo> => (await server.call('pane.get', { pane_id: paneId })).pane;

async function runInPane(command: string, env: Record<string, string> = {}): Promise<string> {
  const { paneId } = await newWorkspace(server, { env: { PATH: `${join(prefix, 'node_modules', '.bin')}:${process.env.PATH}`, ...env } });
  await promptShown(server, paneId);
  await server.call('pane.send_input', { pane_id: paneId, text: command });
  return paneId;
}

async function detects(paneId: string, agent: string, timeoutMs?: number): Promise<PaneInfo> {
  return eventually(async () => {
    const pane = await paneOf(paneId);
    return pane.agent === agent && pane;
  }, `${agent} to be detected in ${paneId}`, timeoutMs);
}

const stop = (paneId: string) => server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });

describe('agents by their real processes', () => {
  before(async () => {
    server = await startServer();
    prefix = scratch('herdr-npm-');
    for (const { bin, pkg, script } of PACKAGES) {
      const file = join(prefix, 'node_modules', pkg, script);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, SCRIPT);
      chmodSync(file, 0o755);
      mkdirSync(join(prefix, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(join('..', pkg, script), join(prefix, 'node_modules', '.bin', bin));
    }
  });
  after(async () => {
    await server.stop();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  for (const { agent, bin } of PACKAGES) {
    it(`${bin} through its npm bin shim is ${agent} (node <shim>)`, async () => {
      const paneId = await runInPane(bin);
      await detects(paneId, agent);
      await stop(paneId);
    });
  }

  it("qwen's script by its own path is qwen, by its package", async () => {
    const paneId = await runInPane(`node ${join(prefix, 'node_modules', '@qwen-code', 'qwen-code', 'cli.js')}`);
    await detects(paneId, 'qwen');
    await stop(paneId);
  });

  it('a program that sets its title to "qwen code" is qwen', async () => {
    const paneId = await runInPane(`node -e "process.title = 'qwen code'; setInterval(() => {}, 1000)"`);
    await detects(paneId, 'qwen');
    await stop(paneId);
  });

  it('kiro-cli, known by its process only, is kiro with state unknown from no source', async () => {
    const paneId = await runInPane(`node -e "process.title = 'kiro-cli'; console.log('Esc to interrupt'); setInterval(() => {}, 1000)"`);
    const pane = await detects(paneId, 'kiro');
    assert.equal(pane.agent_state, 'unknown');
    assert.equal(pane.agent_source, undefined);
    const { explain } = await server.call('agent.explain', { target: paneId });
    assert.equal(explain.decided_by, 'nothing');
    assert.equal(explain.detected, 'kiro');
    await stop(paneId);
  });

  const real = process.env.HERDR_REAL_AGENTS;
  /** What each shows first with an empty HOME and no network (test/fixtures/screens). */
  const FIRST_SCREEN = { qwen: 'blocked', letta: 'blocked', kilo: 'idle', mastracode: 'blocked', qodercli: 'blocked', omp: 'blocked' };
  for (const [agent, first] of Object.entries(FIRST_SCREEN)) {
    const shim = real === undefined ? undefined : join(real, agent, 'node_modules', '.bin', agent);
    const skip = shim === undefined ? 'HERDR_REAL_AGENTS is not set' : existsSync(shim) ? false : `${shim} is not installed`;
    it(`the real ${agent} CLI is detected and its first screen read ${first}`, { skip }, async () => {
      const home = scratch('herdr-home-');
      // omp runs under bun; the npm package `bun` installed beside the agents gives it.
      const bun = join(String(real), 'bun', 'node_modules', '.bin');
      const paneId = await runInPane(agent, {
        HOME: home,
        NPM_CONFIG_PREFIX: join(home, 'npm'),
        PATH: `${dirname(String(shim))}:${bun}:${process.env.PATH}`,
      });
      const pane = await detects(paneId, agent, 30_000);
      assert.equal(pane.agent_source, 'screen');
      const settled = await eventually(async () => {
        const now = await paneOf(paneId);
        return now.agent_state === first && now;
      }, `${agent} at its first screen`, 30_000);
      assert.equal(settled.agent, agent);
      await server.call('pane.close', { pane_id: paneId });
    });
  }
});
