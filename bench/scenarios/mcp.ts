/**
 * `herdr mcp` (issue #24, docs/mcp.md): what the MCP layer costs an orchestrating agent.
 * A tool call's round trip through `herdr mcp` (the SDK's own client over stdio, as an
 * MCP host runs it) beside the same request on the library's kept-alive connection,
 * interleaved sample by sample; then, while 100 panes flood, the CPU of the server and of
 * `herdr mcp` with 20 `wait_agents` calls pending against the same flood without them,
 * interleaved window by window.
 */
import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sleep } from '../../harness/poll.js';
import { HERDR_BIN } from '../../harness/server.js';
import { HerdrHost } from '../contenders/herdr.js';
import { cpuSeconds, median } from '../measure.js';
import { type Metric, type ScenarioResult, formatFigure, measured } from '../report/results.js';
import { type BenchContext, LatencySet, SampleSet, sized, underLoad, withHosts } from './context.js';
import { FAKE_AGENT } from './orchestration-fleet.js';

const FLOOD_PANES = 100;
const WAITS = 20;
/** A read_pane round trip through herdr mcp may cost this much more than the library's (p50, stdio and JSON-RPC twice). */
const ROUND_TRIP_BOUND_MS = 5;
/** 20 pending waits may add this much CPU (cores) over the flood alone. */
const WAITS_CPU_BOUND = 0.05;

/** `herdr mcp` against the host's socket, as an MCP host starts it. */
async function startMcp(socketPath: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [HERDR_BIN, 'mcp', '--socket', socketPath], stderr: 'ignore' });
  const client = new Client({ name: 'herdr-bench', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** CPU seconds used by the server and by herdr mcp (every thread) while `during` runs, per wall second. */
async function coresUsed(host: HerdrHost, mcpPid: number, during: () => Promise<void>): Promise<{ server: number; mcp: number }> {
  const [serverBefore, mcpBefore, start] = [await host.cpuSeconds(), cpuSeconds(mcpPid), performance.now()];
  await during();
  const wall = (performance.now() - start) / 1000;
  return { server: ((await host.cpuSeconds()) - serverBefore) / wall, mcp: (cpuSeconds(mcpPid) - mcpBefore) / wall };
}

export async function mcpScenario(context: BenchContext): Promise<ScenarioResult> {
  const samples = sized(context, { smoke: 20, quick: 200, full: 400 });
  const floodPanes = sized(context, { smoke: 4, quick: FLOOD_PANES, full: FLOOD_PANES });
  const waits = sized(context, { smoke: 3, quick: WAITS, full: WAITS });
  const windowMs = sized(context, { smoke: 500, quick: 4000, full: 5000 });
  const windows = sized(context, { smoke: 1, quick: 3, full: 4 });
  const byMcp = new LatencySet();
  const byLibrary = new LatencySet();
  const cores = { server: { alone: new SampleSet(), waits: new SampleSet() }, mcp: { alone: new SampleSet(), waits: new SampleSet() } };
  const herdrName = context.hostNames.find((name) => name !== 'tmux') ?? 'herdr';

  await withHosts(
    context,
    async ([host]) => {
      if (!(host instanceof HerdrHost)) throw new Error('the mcp scenario needs a herdr host');
      const { client, transport } = await startMcp(host.socketPath);
      const mcpPid = transport.pid;
      if (mcpPid === null) throw new Error('herdr mcp did not start');
      try {
        // Round trips: the same read of the same pane, alternating between the two paths.
        const [pane = ''] = await host.createPanes(1);
        await sleep(sized(context, { smoke: 200, quick: 1000, full: 1000 }));
        const mcpTimes: number[] = [];
        const libraryTimes: number[] = [];
        for (let i = 0; i < samples; i++) {
          const paths = [
            async () => {
              const answer = await client.callTool({ name: 'read_pane', arguments: { target: pane, source: 'visible' } });
              if (answer.isError) throw new Error(`read_pane failed: ${JSON.stringify(answer.content)}`);
            },
            async () => void (await host.connection.call('pane.read', { pane_id: pane, source: 'visible' })),
          ];
          for (const [index, path] of (i % 2 === 0 ? paths : [...paths].reverse()).entries()) {
            const start = performance.now();
            await path();
            ((i % 2 === 0) === (index === 0) ? mcpTimes : libraryTimes).push(performance.now() - start);
          }
        }
        byMcp.add(host.name, mcpTimes);
        byLibrary.add(host.name, libraryTimes);
        context.progress(`mcp: read_pane p50 ${median(mcpTimes).toFixed(2)} ms through herdr mcp, ${median(libraryTimes).toFixed(2)} ms on the library`);
        await host.closePanes([pane]);

        // Pending waits under a flood: idle fake agents nobody prompts, waited on until blocked.
        const agents: string[] = [];
        for (let i = 0; i < waits; i++) {
          const { agent } = await host.connection.call('agent.start', { command: [FAKE_AGENT], cwd: context.environment.dir, timeout_ms: 30_000 });
          agents.push(agent.agent_instance_id);
        }
        try {
          await underLoad(context, host, floodPanes, 'yes', async () => {
            for (let window = 0; window < windows; window++) {
              for (const pending of window % 2 === 0 ? [false, true] : [true, false]) {
                const abort = new AbortController();
                // One signal for every pending call: each listens on it.
                setMaxListeners(waits + 10, abort.signal);
                const calls = pending
                  ? agents.map((target) =>
                      client
                        .callTool({ name: 'wait_agents', arguments: { targets: [target], until: ['blocked'], timeout_ms: 600_000 } }, undefined, { signal: abort.signal, timeout: 600_000 })
                        .catch(() => undefined),
                    )
                  : [];
                // The waits are set up before the window opens.
                if (pending) await sleep(500);
                const used = await coresUsed(host, mcpPid, () => sleep(windowMs));
                abort.abort();
                await Promise.all(calls);
                const label = pending ? `flood + ${waits} waits` : 'flood alone';
                cores.server[pending ? 'waits' : 'alone'].add(host.name, used.server);
                cores.mcp[pending ? 'waits' : 'alone'].add(host.name, used.mcp);
                context.progress(`mcp: ${label}: server ${used.server.toFixed(3)} cores, herdr mcp ${used.mcp.toFixed(3)} cores`);
              }
            }
          });
        } finally {
          for (const agent of agents) await host.connection.call('agent.send_keys', { target: agent, keys: ['C-c'] }).catch(() => undefined);
        }
      } finally {
        await client.close();
      }
    },
    [herdrName],
  );

  const mcp50 = byMcp.metric('read_pane through herdr mcp', 50);
  const mcp99 = byMcp.metric('read_pane through herdr mcp', 99);
  const lib50 = byLibrary.metric('pane.read on the library', 50);
  const lib99 = byLibrary.metric('pane.read on the library', 99);
  const cpu = [
    cores.server.alone.metric('server CPU, the flood alone', 'cores', 'lower'),
    cores.server.waits.metric(`server CPU, the flood and ${waits} pending waits`, 'cores', 'lower'),
    cores.mcp.alone.metric('herdr mcp CPU, the flood alone', 'cores', 'lower'),
    cores.mcp.waits.metric(`herdr mcp CPU, the flood and ${waits} pending waits`, 'cores', 'lower'),
  ];
  const value = (metric: Metric | undefined) => metric?.values[herdrName] ?? NaN;
  const extraCores = value(cpu[1]) - value(cpu[0]) + value(cpu[3]) - value(cpu[2]);
  const overhead = (mcp50.values[herdrName] ?? NaN) - (lib50.values[herdrName] ?? NaN);
  return {
    id: 'mcp',
    title: `herdr mcp: a tool call's round trip; ${waits} pending waits while ${floodPanes} panes flood`,
    method:
      `${samples} read_pane calls through herdr mcp (the MCP SDK's client over stdio) and ${samples} pane.read calls on the library's kept-alive ` +
      `connection, of the same pane, alternating. Then ${waits} fake agents at rest and ${floodPanes} panes running \`yes\`: ${windows * 2} windows of ` +
      `${windowMs} ms, alternately with ${waits} wait_agents calls pending (until blocked, which never comes) and without; the server's CPU ` +
      '(server.stats) and herdr mcp\'s (/proc) per wall second.',
    metrics: [mcp50, lib50, mcp99, lib99, ...cpu],
    targets: measured([
      Number.isFinite(overhead)
        ? { what: 'read_pane p50 over pane.read p50', target: `≤ ${ROUND_TRIP_BOUND_MS} ms more`, measured: formatFigure(overhead, 'ms'), met: overhead <= ROUND_TRIP_BOUND_MS }
        : undefined,
      Number.isFinite(extraCores)
        ? { what: `CPU of ${waits} pending waits over the flood alone`, target: `≤ ${WAITS_CPU_BOUND} cores`, measured: formatFigure(extraCores, 'cores'), met: extraCores <= WAITS_CPU_BOUND }
        : undefined,
    ]),
  };
}
