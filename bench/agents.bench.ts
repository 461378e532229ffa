/**
 * Issue #4's figures: 300 panes, half running an agent that redraws a spinner
 * line 10 times a second. Server CPU with those panes detected as claude,
 * against the same program under a name that is no agent (the difference is
 * the detector's share); and the latency from an agent's screen turning idle
 * to the `pane.agent_state_changed` event.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { lineReader } from '../src/cli/client.js';
import { type TestServer, eventually, sleep, startServer } from '../test/helpers/server.js';
import { ms, percentile, pool } from './support.js';

const FIXTURES = fileURLToPath(new URL('../../bench/fixtures/', import.meta.url));
const PANES = 300;
const SPINNERS = 150;
const LATENCY_SAMPLES = 6;

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
}

async function serverCpuShare(server: TestServer, program: string): Promise<number> {
  const workspaces = Array.from({ length: PANES / 3 }, (_, i) => i);
  let spinners = 0;
  await pool(workspaces, 4, async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const root = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    for (let i = 0; i < 2; i++) await server.call('pane.split', { target_pane_id: root, direction: 'right' });
    const { panes } = await server.call('pane.list', { workspace_id: workspace.stable_id });
    for (const pane of panes) {
      if (spinners++ < SPINNERS) await server.call('pane.send_input', { pane_id: pane.stable_id, text: program });
    }
  });
  await sleep(3000);
  const pid = server.child.pid ?? 0;
  const before = cpuSeconds(pid);
  await sleep(10_000);
  return (cpuSeconds(pid) - before) / 10;
}

async function idleLatency(server: TestServer): Promise<number[]> {
  const { workspace } = await server.call('workspace.create', { cwd: server.dir });
  const paneId = `${workspace.workspace_id}-1`;
  const latencies: number[] = [];
  const socket = connect(server.socketPath);
  const arrivals: number[] = [];
  lineReader(socket, (line) => {
    if (line.includes('"state":"idle"')) arrivals.push(Date.now());
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`${JSON.stringify({ id: 'b', method: 'events.subscribe', params: { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: paneId, state: 'idle' }] } })}\n`);
  let previous = 0;
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    await server.call('pane.send_input', { pane_id: paneId, text: `${FIXTURES}agents/pi` });
    // pi prints the moment it turned idle; the event is the first idle that came after it. (A
    // fresh pi is briefly `idle` before it prints Working..., by the rules: not this sample.)
    const sample = await eventually(async () => {
      const { read } = await server.call('pane.read', { pane_id: paneId, source: 'visible' });
      const printed = Number([...read.text.matchAll(/^done (\d+)$/gm)].at(-1)?.[1]);
      const arrived = arrivals.find((at) => at >= printed);
      return printed > previous && arrived !== undefined && { printed, arrived };
    }, 'pi to go idle', 10_000).catch(() => undefined);
    if (sample) {
      latencies.push(sample.arrived - sample.printed);
      previous = sample.printed;
    } else console.log('  (a run was missed)');
    await sleep(4000); // the agent's linger ends before the next run
  }
  socket.destroy();
  return latencies;
}

export async function agentsBench(): Promise<void> {
  console.log(`\n## ${PANES} panes, ${SPINNERS} redrawing a spinner line 10×/s`);
  const shares: Record<string, number> = {};
  for (const [label, program] of [['detected as claude', `${FIXTURES}agents/claude`], ['same program, no agent', `${FIXTURES}spinner`]] as const) {
    const server = await startServer({ shell: '/bin/sh' });
    try {
      shares[label] = await serverCpuShare(server, program);
      console.log(`  server CPU, ${label.padEnd(24)} ${(shares[label] * 100).toFixed(1)}% of one core`);
    } finally {
      await server.stop();
    }
  }
  const detector = (shares['detected as claude'] ?? 0) - (shares['same program, no agent'] ?? 0);
  console.log(`  detector's share: ${(detector * 100).toFixed(1)}% of one core for ${SPINNERS} busy agents`);

  const server = await startServer({ shell: '/bin/sh' });
  try {
    const latencies = await idleLatency(server);
    console.log(`  screen turns idle → pane.agent_state_changed: p50 ${ms(percentile(latencies, 50))}  p99 ${ms(percentile(latencies, 99))}   (SPEC: within 300 ms)`);
  } finally {
    await server.stop();
  }
}
