/**
 * Issue #3's figures: output → `pane.output_matched` latency (the pane prints
 * a timestamped line, the subscriber notes when the event arrives), on an idle
 * server and while 100 other panes flood output; `ping` latency under that
 * flood; and the cost of 1 000 subscriptions on one pane.
 */
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { call, lineReader } from '../src/cli/client.js';
import { type TestServer, eventually, sleep, startServer } from '../test/helpers/server.js';
import { mb, ms, percentile, timed } from './support.js';

const TICKER = fileURLToPath(new URL('./ticker.js', import.meta.url));
const SAMPLES = 40;
const FLOODERS = 100;

/** Subscribes on a raw socket and notes each tick's latency the moment its line arrives. */
async function tickLatency(
  server: TestServer,
  paneId: string,
  extra: object[] = [],
  whileSubscribed: () => Promise<void> = async () => undefined,
): Promise<number[]> {
  const socket = connect(server.socketPath);
  const latencies: number[] = [];
  lineReader(socket, (line) => {
    const printed = Number(/"matched_line":"TICK (\d+)"/.exec(line)?.[1]);
    if (printed) latencies.push(Date.now() - printed);
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  const subscriptions = [
    { type: 'pane.output_matched', pane_id: paneId, source: 'visible', match: { type: 'regex', value: '^TICK \\d+$' } },
    ...extra,
  ];
  socket.write(`${JSON.stringify({ id: 'bench', method: 'events.subscribe', params: { subscriptions } })}\n`);
  await eventually(() => latencies.length >= SAMPLES, 'tick events', 120_000);
  await whileSubscribed();
  socket.destroy();
  return latencies;
}

function report(label: string, samples: number[], budget: string): void {
  console.log(`  ${label.padEnd(44)} p50 ${ms(percentile(samples, 50))}  p99 ${ms(percentile(samples, 99))}   (${budget})`);
}

export async function eventsBench(): Promise<void> {
  console.log(`\n## output → pane.output_matched, ${SAMPLES} ticks each`);
  const server = await startServer();
  try {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: [process.execPath, TICKER] });
    const ticker = `${workspace.workspace_id}-1`;
    report('idle server', await tickLatency(server, ticker), 'budget p50 10 ms');

    for (let i = 0; i < FLOODERS; i++) {
      await server.call('workspace.create', { cwd: server.dir, command: ['yes', `flooding pane ${i} with a line of text`] });
    }
    await sleep(2000);
    const before = await server.call('server.stats', {});
    const floodStart = Date.now();
    const pings: number[] = [];
    const gets: number[] = [];
    const pinger = (async () => {
      for (let i = 0; i < 100; i++) {
        pings.push((await timed(() => call('ping', {}, { socketPath: server.socketPath })))[1]);
        gets.push((await timed(() => call('pane.get', { pane_id: ticker }, { socketPath: server.socketPath })))[1]);
        await sleep(20);
      }
    })();
    const flooded = await tickLatency(server, ticker);
    await pinger;
    const after = await server.call('server.stats', {});
    const parsed = after.shards.reduce((n, s) => n + s.bytes_parsed, 0) - before.shards.reduce((n, s) => n + s.bytes_parsed, 0);
    report(`while ${FLOODERS} panes flood`, flooded, 'budget p99 150 ms');
    report(`ping while ${FLOODERS} panes flood`, pings, 'budget p99 10 ms');
    report(`pane.get while ${FLOODERS} panes flood`, gets, 'budget p99 10 ms');
    console.log(`  aggregate parsed while flooding: ${mb(parsed / ((Date.now() - floodStart) / 1000))}/s; main loop delay p99 ${ms(after.loop_delay_p99_ms)}`);
  } finally {
    await server.stop();
  }

  console.log('\n## 1 000 output_matched subscriptions on one pane');
  const quiet = await startServer();
  try {
    const { workspace } = await quiet.call('workspace.create', { cwd: quiet.dir, command: [process.execPath, TICKER] });
    const ticker = `${workspace.workspace_id}-1`;
    const many = Array.from({ length: 999 }, (_, i) => ({
      type: 'pane.output_matched',
      pane_id: ticker,
      source: 'recent',
      lines: 200,
      match: i % 2 ? { type: 'substring', value: `absent-literal-${i}` } : { type: 'regex', value: `^never ${i} [a-z]+\\d{3}$` },
    }));
    let matchers = 0;
    const samples = await tickLatency(quiet, ticker, many, async () => {
      matchers = (await quiet.call('server.stats', {})).matchers;
    });
    report(`with ${matchers - 1} other matchers on the pane`, samples, 'same pane; compare with idle above');
  } finally {
    await quiet.stop();
  }
}
