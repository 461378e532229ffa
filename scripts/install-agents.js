#!/usr/bin/env node
/**
 * `npm run agents:install`: the real agent CLIs the tests and the bench drive
 * (harness/agents/agent-clis.json, pinned), each installed by npm into a folder of its
 * own in the cache, outside the repo and never a dependency of the project:
 * $HERDR_AGENT_CACHE, else $XDG_CACHE_HOME/herdr/agents, else ~/.cache/herdr/agents.
 * An installed version is kept; a failed install leaves `install-error.txt` with npm's
 * words, which the tests print as their reason to skip. Exits 0 either way: a machine
 * that cannot reach the registry still runs every other test. No shell is involved.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { clis } = JSON.parse(readFileSync(join(root, 'harness', 'agents', 'agent-clis.json'), 'utf8'));
const cache = process.env.HERDR_AGENT_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'herdr', 'agents');
/** npm's slowest install here (claude, 370 MB) took 18 s; a registry that does not answer gets this long. */
const TIMEOUT_MS = 10 * 60 * 1000;
const only = process.argv.slice(2);

function install(cli) {
  const dir = join(cache, `${cli.agent}-${cli.version}`);
  const bin = join(dir, 'node_modules', '.bin', cli.bin);
  if (existsSync(bin)) return Promise.resolve(`${cli.agent} ${cli.version}: installed`);
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, 'install-error.txt'), { force: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, description: `${cli.package} for herdr's tests` })}\n`);
  const started = Date.now();
  const args = ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${cli.package}@${cli.version}`];
  return new Promise((resolve) => {
    execFile('npm', args, { timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (!error && existsSync(bin)) return resolve(`${cli.agent} ${cli.version}: installed in ${seconds} s`);
      const why = error ? `${error.message}\n${stderr}` : `npm finished but ${bin} is missing\n${stderr}`;
      writeFileSync(join(dir, 'install-error.txt'), why);
      resolve(`${cli.agent} ${cli.version}: NOT installed (${why.split('\n')[0]})`);
    });
  });
}

const wanted = clis.filter((cli) => only.length === 0 || only.includes(cli.agent));
console.log(`agent CLIs into ${cache}`);
// Three at a time: the downloads overlap, the unpacking does not starve a 2-core machine.
const queue = [...wanted];
await Promise.all(
  Array.from({ length: 3 }, async () => {
    for (let cli = queue.shift(); cli; cli = queue.shift()) console.log(`  ${await install(cli)}`);
  }),
);
