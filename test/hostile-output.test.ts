/**
 * Hostile output from panes: what a pane's program prints is input from an
 * untrusted source. Programs print a 10 MB line, megabytes of unterminated OSC
 * and DCS, invalid UTF-8, huge SGR parameters, thousands of alternate-screen
 * switches while a client resizes them hundreds of times a second, a title of
 * megabytes, and a bounded fork bomb (test/fixtures/hostile/print.py), all in
 * the shard that also holds an ordinary shell. None crashes or stalls the
 * shard, the shell's requests stay answered, memory stays bounded, and every
 * pane is readable afterwards.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, type TestServer, eventually, newWorkspace, promptShown, readUntil, sleep, startServer } from './helpers/server.js';
import { rssBytes, processSessionMembers } from './helpers/proc.js';

const PRINT = join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'print.py');
const MODES = ['long-line', 'osc-unterminated', 'title', 'dcs-unterminated', 'bad-utf8', 'sgr', 'alt-screen', 'fork-bomb'] as const;
/** A shell's request taking this long means its shard stalled (the shard's own deadline is 10 s). */
const STALL_BOUND_MS = 3000;
const RSS_BOUND_BYTES = 1024 * 1024 * 1024;

/** Times requests to an ordinary pane until `until` resolves; returns the slowest. */
async function probe(server: TestServer, paneId: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  let slowest = 0;
  for (let i = 0; !done; i++) {
    const started = Date.now();
    await server.call('pane.read', { pane_id: paneId, source: 'visible' });
    await server.call('pane.send_text', { pane_id: paneId, text: i % 40 === 0 ? 'echo probe\r' : '' });
    slowest = Math.max(slowest, Date.now() - started);
    await sleep(20);
  }
  return slowest;
}

describe('hostile output from panes', () => {
  it('none crashes or stalls the shard; the other pane answers, memory stays bounded, every pane reads afterwards', { timeout: 300_000 }, async (t) => {
    const server = await startServer({ workers: 1 });
    try {
      const witness = await newWorkspace(server);
      await promptShown(server, witness.paneId);
      const panes = new Map<string, string>();
      for (const mode of MODES) panes.set(mode, (await newWorkspace(server, { command: ['python3', PRINT, mode] })).paneId);
      const altPane = panes.get('alt-screen') ?? '';

      let peakRss = rssBytes(server.pid);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(server.pid))), 100);
      // Hundreds of resizes a second while the program switches screens.
      const resizing = (async () => {
        const end = Date.now() + 3000;
        for (let i = 0; Date.now() < end; i++) {
          await Promise.all(Array.from({ length: 4 }, (_, j) => server.call('pane.resize', { pane_id: altPane, cols: 20 + ((i * 4 + j) % 180), rows: 5 + ((i + j) % 60) })));
        }
      })();
      const recovered = Promise.all(
        [...panes].map(([mode, paneId]) => readUntil(server, paneId, (text) => text.includes(`recovered-${mode}`), { source: 'recent', lines: 50 }, 120_000)),
      );
      const slowest = await probe(server, witness.paneId, Promise.all([recovered, resizing]));
      await recovered;
      clearInterval(sampler);

      const stats = await server.call('server.stats', {});
      t.diagnostic(`slowest request to the other pane ${slowest} ms; server RSS peak ${Math.round(peakRss / 1e6)} MB`);
      assert.equal(stats.shard_deaths, 0, 'no shard died');
      assert.ok(slowest < STALL_BOUND_MS, `the other pane's slowest request took ${slowest} ms`);
      assert.ok(peakRss < RSS_BOUND_BYTES, `server RSS peaked at ${Math.round(peakRss / 1e6)} MB`);

      // Every pane is readable and still takes part.
      for (const [mode, paneId] of panes) {
        const { read } = await server.call('pane.read', { pane_id: paneId, source: 'visible', strip_ansi: false });
        assert.match(read.text, new RegExp(`recovered-${mode}`), `${mode} shows its last line`);
        const { pane } = await server.call('pane.get', { pane_id: paneId });
        assert.ok((pane.title ?? '').length <= 1024, `${mode}: title of ${(pane.title ?? '').length} characters`);
      }
      const { pane: titled } = await server.call('pane.get', { pane_id: panes.get('title') ?? '' });
      assert.equal(titled.title, 'T'.repeat(1024), 'a title of megabytes is cut to 1024 characters');
      await server.call('pane.send_input', { pane_id: witness.paneId, text: 'echo witness-ok' });
      await readUntil(server, witness.paneId, (t) => /^witness-ok$/m.test(t));

      // The fork bomb's 511 processes end with its pane.
      const bombPane = panes.get('fork-bomb') ?? '';
      const { pane: bomb } = await server.call('pane.get', { pane_id: bombPane });
      const sid = bomb.pid ?? 0;
      // The leader says "recovered" once it forked its own two; the deepest levels may still be forking.
      await eventually(() => processSessionMembers([sid]).length === 511, `the whole tree forked (${processSessionMembers([sid]).length} of 511)`, 10_000);
      await server.call('pane.close', { pane_id: bombPane });
      await eventually(() => processSessionMembers([sid]).length === 0, `the fork bomb's processes to end (${processSessionMembers([sid]).length} left)`, 10_000);
    } finally {
      await server.stop();
    }
  });
});
