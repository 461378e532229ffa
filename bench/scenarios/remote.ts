/**
 * Servers over ssh (docs/remote.md), on loopback through a real sshd: what
 * a request and an event cost through `ssh -T host herdr dial-stdio` beside
 * the local socket, and ssh's own floor (a line echoed by `cat` through the
 * same kind of connection). Skipped, saying why, where sshd is not installed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { HerdrClient } from '../../src/client/client.js';
import { sshArgv, sshDialer } from '../../src/client/transport.js';
import { sshdMissing, startSshd } from '../../harness/sshd.js';
import { startServer } from '../../harness/server.js';
import { percentile } from '../measure.js';
import { type Metric, type ScenarioResult, boundTarget, measured } from '../report/results.js';
import { type BenchContext, sampleMs, sized } from './context.js';

/** Round trips of a line through `ssh host cat`: the transport's floor. */
async function sshEchoMs(sshCommand: string, host: string, samples: number): Promise<number[]> {
  const [program = 'ssh', ...flags] = sshArgv(sshCommand);
  const child = spawn(program, [...flags, host, 'cat'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<void>((resolve) => lines.once('line', () => resolve()));
  try {
    const warm = next();
    child.stdin.write('warm\n');
    await warm;
    return await sampleMs(samples, 0, async (i) => {
      const echoed = next();
      child.stdin.write(`line ${i}\n`);
      await echoed;
    });
  } finally {
    child.kill();
  }
}

/** Request round trips (ping on the client's kept-alive connection). */
function pingMs(client: HerdrClient, samples: number): Promise<number[]> {
  return sampleMs(samples, 0, async () => void (await client.ping()));
}

/** From a focus change requested locally to its `workspace_focused` event reaching `client`'s subscriber (the server publishes it right after the answer). */
async function eventMs(client: HerdrClient, local: HerdrClient, workspaces: [string, string], samples: number): Promise<number[]> {
  const subscription = await client.subscribe([{ type: 'workspace.focused' }]);
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const target = workspaces[i % 2] as string;
      const start = performance.now();
      await local.workspace.focus({ workspace_id: target });
      // next(), not `for await`: leaving a for-await loop would close the subscription.
      for (;;) {
        const { done, value } = await subscription.next();
        if (done) throw new Error('the subscription ended');
        if (value.event === 'workspace_focused' && value.data.workspace_id === target) break;
      }
      times.push(performance.now() - start);
    }
  } finally {
    subscription.close();
  }
  return times;
}

function latency(name: string, values: Partial<Record<'herdr' | 'ceiling', number[]>>, p: number): Metric {
  const result: Metric['values'] = {};
  for (const [contender, samples] of Object.entries(values)) if (samples && samples.length > 0) result[contender as 'herdr' | 'ceiling'] = percentile(samples, p);
  return { name: `${name} p${p}`, unit: 'ms', better: 'lower', values: result };
}

export async function remoteScenario(context: BenchContext): Promise<ScenarioResult> {
  const samples = sized(context, { smoke: 20, quick: 300, full: 1000 });
  const events = sized(context, { smoke: 10, quick: 100, full: 300 });
  const server = await startServer({ baseEnv: context.environment.env });
  const missing = sshdMissing();
  const sshd = missing ? undefined : await startSshd(server.socketPath);
  if (missing) context.progress(`remote: ${missing}`);
  const local = new HerdrClient({ socketPath: server.socketPath });
  const remote = sshd ? new HerdrClient({ dialer: sshDialer(sshd.host, sshd.sshCommand) }) : undefined;
  const figures = { localPing: [] as number[], sshPing: [] as number[], echo: [] as number[], localEvent: [] as number[], sshEvent: [] as number[] };
  try {
    const first = await local.workspace.create({ command: ['sleep', '100000'] });
    const second = await local.workspace.create({ command: ['sleep', '100000'], focus: true });
    const workspaces: [string, string] = [first.workspace.workspace_id, second.workspace.workspace_id];
    await local.ping();
    await remote?.ping();
    figures.localPing = await pingMs(local, samples);
    if (remote && sshd) {
      figures.sshPing = await pingMs(remote, samples);
      figures.echo = await sshEchoMs(sshd.sshCommand, sshd.host, samples);
    }
    figures.localEvent = await eventMs(local, local, workspaces, events);
    if (remote) figures.sshEvent = await eventMs(remote, local, workspaces, events);
    context.progress(
      `remote: ping p50 ${percentile(figures.localPing, 50).toFixed(2)} ms local, ${remote ? `${percentile(figures.sshPing, 50).toFixed(2)} ms over ssh (ssh's own echo ${percentile(figures.echo, 50).toFixed(2)} ms)` : 'no ssh'}`,
    );
  } finally {
    local.close();
    remote?.close();
    sshd?.stop();
    await server.stop();
  }
  const sshPing50 = latency('request round trip over ssh', { herdr: figures.sshPing, ceiling: figures.echo }, 50);
  return {
    id: 'remote',
    title: 'Remote servers over ssh (loopback)',
    method: `${samples} pings on a kept-alive connection over the local socket and through \`ssh -T <host> herdr dial-stdio\` to a real sshd on 127.0.0.1; the ceiling is a line echoed by \`cat\` through the same ssh. Then ${events} focus changes requested locally, timed until their workspace_focused event reaches a subscriber on each transport.${missing ? ` (${missing}.)` : ''}`,
    metrics: [
      latency('request round trip, local socket', { herdr: figures.localPing }, 50),
      latency('request round trip, local socket', { herdr: figures.localPing }, 99),
      sshPing50,
      latency('request round trip over ssh', { herdr: figures.sshPing, ceiling: figures.echo }, 99),
      latency('event latency, local socket', { herdr: figures.localEvent }, 50),
      latency('event latency, local socket', { herdr: figures.localEvent }, 99),
      latency('event latency over ssh', { herdr: figures.sshEvent }, 50),
      latency('event latency over ssh', { herdr: figures.sshEvent }, 99),
    ],
    targets: measured([boundTarget(sshPing50, 'herdr', 5)]),
  };
}
