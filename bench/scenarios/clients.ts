/**
 * What a request costs a program (through the client library) and a shell
 * script (through the `herdr` command), on an idle server with a few panes.
 *
 * Library: `pane.get` over one kept-alive connection one at a time, the
 * same with 64 in flight, and with a connection per request (herdr 0.2.0's
 * way); the ceiling is the same library against a process that answers every
 * line at once with a canned answer (canned-server.ts). CLI: one invocation
 * per command kind, herdr against tmux's own client; the ceiling is Node
 * starting and exiting (`node -e 0`), which no Node command can beat.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { HerdrClient } from '../../src/client/client.js';
import { withCannedServer } from '../contenders/canned-launcher.js';
import { HerdrHost } from '../contenders/herdr.js';
import { CLI_KINDS, type CliKind, type PaneHost } from '../contenders/host.js';
import { pool } from '../measure.js';
import type { ContenderName, Metric, ScenarioResult } from '../report/results.js';
import { type BenchContext, LatencySet, SampleSet, rotated, sampleMs, sized, withHosts } from './context.js';

const IN_FLIGHT = 64;
const runFile = promisify(execFile);

/** A connection per request is slower: a quarter as many, at least 10. */
const perRequestCount = (requests: number) => Math.max(10, Math.round(requests / 4));

type LibraryMode = 'one connection, one at a time' | `one connection, ${typeof IN_FLIGHT} in flight` | 'a connection per request';

/** One round of library requests against `socketPath`: each mode's requests per second, and the latencies of the serial ones. */
async function libraryRound(socketPath: string, paneId: string, requests: number) {
  const params = { pane_id: paneId };
  const keptAlive = new HerdrClient({ socketPath });
  const oneShot = new HerdrClient({ socketPath, keepAlive: false });
  try {
    await keptAlive.pane.get(params); // opens the connection outside the timing
    const rate = async (count: number, run: () => Promise<number[]>) => {
      const start = performance.now();
      const times = await run();
      return { perSecond: count / ((performance.now() - start) / 1000), times };
    };
    const serial = await rate(requests, () => sampleMs(requests, 0, async () => void (await keptAlive.pane.get(params))));
    const parallel = await rate(requests, async () => {
      await pool(Array.from({ length: requests }), IN_FLIGHT, async () => void (await keptAlive.pane.get(params)));
      return [];
    });
    const oneShots = perRequestCount(requests);
    const perRequest = await rate(oneShots, () => sampleMs(oneShots, 0, async () => void (await oneShot.pane.get(params))));
    return new Map<LibraryMode, { perSecond: number; times: number[] }>([
      ['one connection, one at a time', serial],
      [`one connection, ${IN_FLIGHT} in flight`, parallel],
      ['a connection per request', perRequest],
    ]);
  } finally {
    keptAlive.close();
  }
}

export async function clientsScenario(context: BenchContext): Promise<ScenarioResult> {
  const requests = sized(context, { smoke: 100, quick: 2000, full: 6000 });
  const cliSamples = sized(context, { smoke: 2, quick: 8, full: 20 });
  const turns = sized(context, { smoke: 1, quick: 2, full: 3 });
  const rates = new Map<LibraryMode, SampleSet>();
  const latencies = new Map<LibraryMode, LatencySet>();
  const cli = new Map<CliKind, LatencySet>(CLI_KINDS.map((kind) => [kind, new LatencySet()]));
  const record = (contender: ContenderName, round: Awaited<ReturnType<typeof libraryRound>>) => {
    for (const [mode, { perSecond, times }] of round) {
      if (!rates.has(mode)) rates.set(mode, new SampleSet());
      rates.get(mode)?.add(contender, perSecond);
      if (times.length === 0) continue;
      if (!latencies.has(mode)) latencies.set(mode, new LatencySet());
      latencies.get(mode)?.add(contender, times);
    }
  };
  const names = context.hostNames.filter((name) => name !== 'herdr-1');

  await withHosts(context, async (hosts) => {
    const panes = new Map<PaneHost, string>();
    for (const host of hosts) panes.set(host, (await host.createPanes(4))[0] ?? '');
    for (let turn = 0; turn < turns; turn++) {
      for (const host of rotated(hosts, turn)) {
        const pane = panes.get(host) ?? '';
        if (host instanceof HerdrHost) record(host.name, await libraryRound(host.socketPath, pane, requests));
        for (const kind of CLI_KINDS) cli.get(kind)?.add(host.name, await sampleMs(cliSamples, 0, () => host.runCli(kind, pane)));
        context.progress(`clients: ${host.name.padEnd(8)} ${requests} library requests per mode, ${cliSamples} runs of each command (turn ${turn + 1}/${turns})`);
      }
      if (context.ceiling) {
        record('ceiling', await withCannedServer(context.environment, (socketPath) => libraryRound(socketPath, '1-1', requests)));
        const nodeStart = await sampleMs(cliSamples, 0, async () => void (await runFile(process.execPath, ['-e', '0'], { env: context.environment.env })));
        for (const set of cli.values()) set.add('ceiling', nodeStart);
        context.progress(`clients: ceiling  canned answers and node -e 0 (turn ${turn + 1}/${turns})`);
      }
    }
  }, names);

  const metrics: Metric[] = [];
  for (const [mode, set] of rates) metrics.push(set.metric(`library ${mode}`, 'req/s', 'higher'));
  for (const [mode, set] of latencies) metrics.push(set.metric(`library ${mode}`, 50), set.metric(`library ${mode}`, 99));
  for (const [kind, set] of cli) metrics.push(set.metric(`CLI ${kind}`, 50));
  return {
    id: 'clients',
    title: 'Requests through the library and the CLI (idle server)',
    method: `Library: ${requests} pane.get requests per mode and turn over one kept-alive connection one at a time, the same with ${IN_FLIGHT} in flight, and ${perRequestCount(requests)} with a connection each; ceiling: the same library against a process that answers every line at once with a canned answer. CLI: each command run as its own process ${cliSamples} times per turn (herdr --version / workspace list / pane get / pane read --lines 80 / pane run; tmux -V / list-sessions / display-message / capture-pane / send-keys); ceiling: node -e 0. ${turns} interleaved turns.`,
    metrics,
    targets: [],
  };
}
