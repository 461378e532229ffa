import { writeFileSync } from 'node:fs';
import { launchChromium } from '../../harness/browser.js';
import '../../harness/page-probe.js';
import { eventually, sleep } from '../../harness/poll.js';
import { startWebProcess } from '../../harness/web.js';
import { startServer } from '../../harness/server.js';

const PRINTER = '/work/main/dist/bench/agent-printer.js';
const profDir = process.env.PROF_DIR;
const server = await startServer(profDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}/server`] } : {});
const tiles = Number(process.argv[2] ?? 100), printers = 20;
for (let i = 0; i < tiles - printers; i++) await server.call('workspace.create', { cwd: '/tmp', focus: false });
for (let i = 0; i < printers; i++) await server.call('workspace.create', { cwd: '/tmp', focus: false, command: ['sh', '-c', `exec node ${PRINTER} ${i % 2 ? 'answer' : 'agent-tui'} ${i} 16384`] });
const web = await startWebProcess(server.socketPath, process.argv.slice(4), profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}/web`] : []);
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 2800, height: 2400 } });
await page.goto(web.url);
await page.selectOption('#tile-size', '260px');
await eventually(async () => (await page.evaluate(() => window.herdrWeb.streaming())) >= tiles, 'streaming', 60000, 100);
await sleep(2000);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const m0 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const f0 = await page.evaluate(() => window.herdrWeb.tileFrames());
if (process.argv[3] === 'prof') { await cdp.send('Profiler.enable'); await cdp.send('Profiler.start'); }
const t0 = performance.now();
await sleep(6000);
const wall = (performance.now() - t0) / 1000;
const m1 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const f1 = await page.evaluate(() => window.herdrWeb.tileFrames());
for (const k of ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration']) console.log(k, (((m1[k] ?? 0) - (m0[k] ?? 0)) / wall).toFixed(3));
console.log('frames/s per printer', ((f1 - f0) / wall / printers).toFixed(1));
if (process.argv[3] === 'prof') {
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => { const n = byId.get(id)!; const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)); });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / total * 100).toFixed(1) + '%', k);
}
await browser.close(); await web.stop(); await server.stop();
