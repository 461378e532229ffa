/**
 * `herdr web` (issue #25, docs/web.md) at fleet size: 100 panes as live tiles
 * in headless Chromium (Debian's, driven by playwright-core), 20 of them
 * printing like working agents (generated agent-TUI frames and streamed
 * answers, 16 KiB/s each), the other 80 idle shells. Measured in windows,
 * alternating: the page open with every tile on screen and streaming, and the
 * page closed (the same printers, herdr web still running). The browser's
 * main-thread time comes from the browser itself (the DevTools protocol's
 * Performance.getMetrics TaskDuration, through Playwright); the server's from
 * server.stats, herdr web's and Chromium's (all its processes) from /proc.
 * The tile frame rate is what the page's xterm.js terminals drew. No peer
 * serves such a page, so the figures stand against the budgets and
 * against the page-closed windows of the same run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../../harness/browser.js';
import '../../harness/page-probe.js';
import { eventually, sleep } from '../../harness/poll.js';
import { startWebProcess, type WebProcess } from '../../harness/web.js';
import { parseProcStat } from '../../src/os/proc-stat.js';
import { HerdrHost } from '../contenders/herdr.js';
import { cpuSeconds } from '../measure.js';
import { boundTarget, measured, type ScenarioResult } from '../report/results.js';
import { type BenchContext, SampleSet, sized, withHosts } from './context.js';
import { FAKE_AGENT } from './orchestration-fleet.js';

const PRINTER = fileURLToPath(new URL('../agent-printer.js', import.meta.url));
const PRINT_BYTES_PER_SECOND = 16 * 1024;
/** The budgets: the browser's main thread, and what the open page adds to the server's CPU. */
const MAIN_THREAD_BOUND = 0.5;
const SERVER_EXTRA_BOUND = 0.1;
/** herdr web itself (a client process beside the server): our own budget. */
const WEB_PROCESS_BOUND = 0.05;

/** CPU seconds of every Chromium process under this bench. */
function chromiumCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'latin1').startsWith('/usr/lib/chromium/chromium')) continue;
      const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'latin1'));
      total += (stat.utimeTicks + stat.stimeTicks) / 100;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

async function mainThreadSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? NaN;
}

/** Opens the page with every tile on screen and waits until each one streams. */
async function openPage(browser: Browser, web: WebProcess, tiles: number, size: { width: number; height: number }): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.newPage({ viewport: size });
  await page.goto(web.url);
  await page.selectOption('#tile-size', '260px');
  await eventually(async () => (await page.evaluate(() => window.herdrWeb.streaming())) >= tiles, `${tiles} tiles streaming`, 60_000, 100);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

export async function webScenario(context: BenchContext): Promise<ScenarioResult> {
  const tiles = sized(context, { smoke: 4, quick: 100, full: 100 });
  const printers = sized(context, { smoke: 2, quick: 20, full: 20 });
  const windowMs = sized(context, { smoke: 1000, quick: 8000, full: 10_000 });
  const windows = sized(context, { smoke: 1, quick: 3, full: 4 });
  const missing = chromiumMissing();
  const title = `herdr web: ${tiles} live tiles while ${printers} panes print`;
  if (missing) {
    if (context.mode !== 'smoke') throw new Error(missing);
    return { id: 'web', title, method: `skipped: ${missing}`, metrics: [], targets: [] };
  }
  const mainThread = new SampleSet();
  const chromium = new SampleSet();
  const framesPerTile = new SampleSet();
  const server = { open: new SampleSet(), closed: new SampleSet() };
  const webCpu = { open: new SampleSet(), closed: new SampleSet() };
  const herdrName = context.hostNames.find((name) => name !== 'tmux') ?? 'herdr';
  const viewport = tiles > 20 ? { width: 2800, height: 2400 } : { width: 1280, height: 900 };

  await withHosts(
    context,
    async ([host]) => {
      if (!(host instanceof HerdrHost)) throw new Error('the web scenario needs a herdr host');
      context.progress(`web: ${printers} printers, ${tiles - printers} idle shells`);
      const printing: string[] = [];
      for (let i = 0; i < printers; i++) {
        const corpus = i % 2 === 0 ? 'agent-tui' : 'answer';
        printing.push(...(await host.createPanes(1, `exec node ${PRINTER} ${corpus} ${i} ${PRINT_BYTES_PER_SECOND}`)));
      }
      await host.createPanes(tiles - printers);
      const web = await startWebProcess(host.socketPath);
      const browser = await launchChromium();
      try {
        for (let round = 0; round < windows; round++) {
          for (const open of round % 2 === 0 ? [true, false] : [false, true]) {
            const page = open ? await openPage(browser, web, tiles, viewport) : undefined;
            // Settled: the page drew every tile's screen, streams are running.
            await sleep(open ? 2000 : 1000);
            const before = { server: await host.cpuSeconds(), web: cpuSeconds(web.child.pid ?? 0), chromium: chromiumCpuSeconds(), wall: performance.now() };
            const main = page ? await mainThreadSeconds(page.cdp) : 0;
            const frames = page ? await page.page.evaluate(() => window.herdrWeb.tileFrames()) : 0;
            await sleep(windowMs);
            const wall = (performance.now() - before.wall) / 1000;
            const serverCores = ((await host.cpuSeconds()) - before.server) / wall;
            const webCores = (cpuSeconds(web.child.pid ?? 0) - before.web) / wall;
            (open ? server.open : server.closed).add(host.name, serverCores);
            (open ? webCpu.open : webCpu.closed).add(host.name, webCores);
            if (page) {
              const mainCores = ((await mainThreadSeconds(page.cdp)) - main) / wall;
              const perTile = ((await page.page.evaluate(() => window.herdrWeb.tileFrames())) - frames) / wall / printers;
              const browserCores = (chromiumCpuSeconds() - before.chromium) / wall;
              mainThread.add(host.name, mainCores);
              chromium.add(host.name, browserCores);
              framesPerTile.add(host.name, perTile);
              context.progress(
                `web: page open: main thread ${mainCores.toFixed(3)} cores, Chromium ${browserCores.toFixed(3)}, ${perTile.toFixed(1)} frames/s per printing tile; server ${serverCores.toFixed(3)}, herdr web ${webCores.toFixed(3)}`,
              );
              await page.page.close();
            } else {
              context.progress(`web: page closed: server ${serverCores.toFixed(3)} cores, herdr web ${webCores.toFixed(3)}`);
            }
          }
        }
        if (context.mode !== 'smoke') await screenshots(browser, web, host, context, printing[0] ?? '');
      } finally {
        await browser.close();
        await web.stop();
      }
    },
    [herdrName],
  );

  const metrics = [
    mainThread.metric('browser main thread, page open', 'cores', 'lower'),
    chromium.metric('Chromium, all processes, page open', 'cores', 'lower'),
    framesPerTile.metric('frames drawn per printing tile', 'frames/s', 'higher'),
    server.open.metric('server CPU, page open', 'cores', 'lower'),
    server.closed.metric('server CPU, page closed', 'cores', 'lower'),
    webCpu.open.metric('herdr web CPU, page open', 'cores', 'lower'),
    webCpu.closed.metric('herdr web CPU, page closed', 'cores', 'lower'),
  ];
  const value = (index: number) => metrics[index]?.values[herdrName] ?? NaN;
  const serverExtra = value(3) - value(4);
  const [main, , , , , webOpen] = metrics;
  return {
    id: 'web',
    title,
    method:
      `${tiles} panes (${printers} printing generated agent-TUI frames and streamed answers at ${PRINT_BYTES_PER_SECOND / 1024} KiB/s each, the rest idle shells), ` +
      `herdr web at its default 10 frames a second, headless Chromium ${viewport.width}×${viewport.height} with every tile on screen. ${windows * 2} windows of ${windowMs} ms, ` +
      'alternately with the page open and closed (herdr web running either way). Main thread: Performance.getMetrics TaskDuration (DevTools protocol, through Playwright); ' +
      'server: server.stats cpu_ms; herdr web and Chromium: /proc; frames: xterm.js render passes of the tiles.',
    metrics,
    targets: measured([
      main ? boundTarget(main, herdrName, MAIN_THREAD_BOUND) : undefined,
      Number.isFinite(serverExtra)
        ? { what: 'the server\'s extra CPU for the open page', target: `≤ ${SERVER_EXTRA_BOUND} cores`, measured: `${serverExtra.toFixed(3)} cores`, met: serverExtra <= SERVER_EXTRA_BOUND }
        : undefined,
      webOpen ? boundTarget(webOpen, herdrName, WEB_PROCESS_BOUND) : undefined,
    ]),
  };
}

/**
 * The README's pictures: the grid at a desk's size (a blocked agent first, one done, printers working),
 * and one pane large. Written beside the results.
 */
async function screenshots(browser: Browser, web: WebProcess, host: HerdrHost, context: BenchContext, printer: string): Promise<void> {
  const asker = await host.connection.call('agent.start', { command: [FAKE_AGENT], cwd: context.environment.dir, name: 'reviewer', timeout_ms: 30_000 });
  const finisher = await host.connection.call('agent.start', { command: [FAKE_AGENT], cwd: context.environment.dir, name: 'docs', timeout_ms: 30_000 });
  await host.connection.call('agent.prompt', { target: asker.agent.agent_instance_id, text: 'ask 100 may I delete the build directory', wait: { until: ['blocked'], timeout_ms: 10_000 } });
  await host.connection.call('agent.prompt', { target: finisher.agent.agent_instance_id, text: 'work 100 write the changelog', wait: { until: ['done'], timeout_ms: 10_000 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(web.url);
    await eventually(async () => (await page.evaluate(() => window.herdrWeb.order()))[0] === `local/${asker.agent.terminal_id}`, 'the blocked agent first', 30_000, 100);
    await page.waitForSelector('.tile .option');
    await sleep(1500);
    const dir = context.resultsDir;
    await page.screenshot({ path: join(dir, 'web-grid.png') });
    await page.locator(`.tile[data-key="local/${printer}"]`).click();
    await page.waitForSelector('#pane-view:not([hidden])');
    await sleep(1500);
    await page.screenshot({ path: join(dir, 'web-pane.png') });
    context.progress(`web: screenshots in ${dir}`);
  } finally {
    await page.close();
  }
}
