/**
 * The package as another project gets it: packed, installed from the tarball
 * (its postinstall builds node-pty wherever npm put it), the library imported
 * by name with its types, and the installed `herdr` serving.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT, tempDir } from '../harness/server.js';
import { eventually } from '../harness/poll.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** What a user's program does with the library; prints what the test checks. */
const USER_PROGRAM = `
import { HerdrClient, HerdrError } from 'herdr';
const client = new HerdrClient({ socketPath: process.argv[2] });
const { workspace } = await client.call('workspace.create', { command: ['/bin/sh', '-c', 'echo from-the-package; exec sleep 60'] });
const waited = await client.call('pane.wait_for_output', {
  pane_id: workspace.workspace_id + '-1', source: 'recent', match: { type: 'substring', value: 'from-the-package' }, timeout_ms: 10000,
});
let code = 'none';
try {
  await client.pane.get({ pane_id: '99-99' });
} catch (error) {
  if (error instanceof HerdrError) code = error.code;
}
client.close();
console.log(JSON.stringify({ matched: waited.matched_line, code }));
`;

/** The same calls as a TypeScript user writes them: must type-check, and a wrong param must not. */
const USER_TYPES = `
import { HerdrClient } from 'herdr';
const client = new HerdrClient();
export async function use(): Promise<string> {
  const { pane } = await client.call('pane.get', { pane_id: '1-1' });
  // @ts-expect-error pane_id is a string
  await client.call('pane.get', { pane_id: 1 });
  const { read } = await client.pane.read({ pane_id: pane.pane_id, source: 'recent' });
  // @ts-expect-error not a method of the table
  await client.pane.readAll({ pane_id: '1-1' });
  const stats = await client.server.stats();
  return read.text + pane.stable_id + stats.version;
}
`;

describe('the package', () => {
  it('installs from its tarball into another project; the library and the server work from there', { timeout: INSTALL_TIMEOUT_MS + 120_000 }, async () => {
    const dir = tempDir('herdr-package-');
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // `npm test` has just built dist/, which the tarball carries.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO_ROOT });
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, `herdr-${version}.tgz`)], {
      cwd: app,
      timeout: INSTALL_TIMEOUT_MS,
    });
    assert.ok(existsSync(join(app, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node')), 'node-pty built from source by the postinstall');

    writeFileSync(join(app, 'use.ts'), USER_TYPES);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, typeRoots: [join(REPO_ROOT, 'node_modules', '@types')], types: ['node'] },
        files: ['use.ts'],
      }),
    );
    await run(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { cwd: app }).catch(
      (error: { stdout: string }) => assert.fail(`the library's types did not check:\n${error.stdout}`),
    );

    const socketPath = join(dir, 'herdr.sock');
    const herdr = join(app, 'node_modules', '.bin', 'herdr');
    const server = spawn(herdr, ['server', '--socket', socketPath, '--shell', '/bin/sh'], { cwd: app, stdio: 'ignore' });
    try {
      await eventually(() => existsSync(socketPath), 'the installed server listening', 20_000);
      writeFileSync(join(app, 'use.mjs'), USER_PROGRAM);
      const { stdout } = await run(process.execPath, ['use.mjs', socketPath], { cwd: app });
      assert.deepEqual(JSON.parse(stdout), { matched: 'from-the-package', code: 'pane_not_found' });
      await run(herdr, ['server', 'stop', '--socket', socketPath], { cwd: app });
      await eventually(() => server.exitCode !== null, 'the installed server stopped', 10_000);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
