/**
 * Where `herdr web`'s page spends its main thread, for profiling (ARCHITECTURE.md "herdr web"):
 * the bench `web`'s fleet (20 printers among N tiles, all on screen), then over 6 s the
 * DevTools Performance metrics (task, script, layout, style) and frames per printing tile, and
 * with `--profile` the page's hottest functions by self time.
 *   node dist/bench/tools/web-prof.js [tiles=100] [--profile]
 * PROF_DIR=dir also writes the server's and herdr web's --cpu-prof profiles there.
 */
import { fileURLToPath } from 'node:url';
import type { CDPSession } from 'playwright-core';
import { launchChromium } from '../../harness/browser.js';
import '../../harness/page-probe.js';
import { eventually, sleep } from '../../harness/poll.js';
import { startServer } from '../../harness/server.js';
import { startWebProcess } from '../../harness/web.js';

const PRINTER = fileURLToPath(new URL('../agent-printer.js', import.meta.url));
const PRINTERS = 20;
const WINDOW_MS = 6000;
const METRICS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'];

const tiles = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 100);
const profile = process.argv.includes('--profile');
const profDir = process.env.PROF_DIR;

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return new Map(list.map((metric) => [metric.name, metric.value]));
}

const server = await startServer(profDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}/server`] } : {});
for (let i = 0; i < PRINTERS; i++) {
  const corpus = i % 2 ? 'answer' : 'agent-tui';
  await server.call('workspace.create', { cwd: server.dir, focus: false, command: ['sh', '-c', `exec node ${PRINTER} ${corpus} ${i} 16384`] });
}
for (let i = PRINTERS; i < tiles; i++) await server.call('workspace.create', { cwd: server.dir, focus: false });
const web = await startWebProcess(server.socketPath, [], profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}/web`] : []);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 2800, height: 2400 } });
  await page.goto(web.url);
  await page.selectOption('#tile-size', '260px');
  await eventually(async () => (await page.evaluate(() => window.herdrWeb.streaming())) >= tiles, 'every tile streaming', 60_000, 100);
  await sleep(2000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const before = await metrics(cdp);
  const framesBefore = await page.evaluate(() => window.herdrWeb.tileFrames());
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const start = performance.now();
  await sleep(WINDOW_MS);
  const wall = (performance.now() - start) / 1000;
  const after = await metrics(cdp);
  for (const name of METRICS) console.log(name.padEnd(20), (((after.get(name) ?? 0) - (before.get(name) ?? 0)) / wall).toFixed(3), 'cores');
  const frames = (await page.evaluate(() => window.herdrWeb.tileFrames())) - framesBefore;
  console.log('frames per printing tile', (frames / wall / PRINTERS).toFixed(1), 'a second');
  if (profile) {
    const { profile: cpu } = await cdp.send('Profiler.stop');
    const nodes = new Map(cpu.nodes.map((node) => [node.id, node]));
    const self = new Map<string, number>();
    (cpu.samples ?? []).forEach((id, index) => {
      const frame = nodes.get(id)?.callFrame;
      const key = frame ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber}` : '?';
      self.set(key, (self.get(key) ?? 0) + (cpu.timeDeltas?.[index] ?? 0));
    });
    const total = [...self.values()].reduce((sum, value) => sum + value, 0);
    for (const [key, value] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${((value / total) * 100).toFixed(1)}%`.padStart(6), key);
  }
} finally {
  await browser.close();
  await web.stop();
  await server.stop();
}
