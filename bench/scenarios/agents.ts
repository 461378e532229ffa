/**
 * Agent detection at fleet size: 300 panes, half running a program that
 * redraws a spinner line 10 times a second. Server CPU while those panes are
 * detected as claude, against the same program under a name that is no agent
 * (the difference is the detector's share); and how long after an agent's
 * screen turns idle `pane.agent_state_changed` arrives. Ours only: tmux knows
 * no agents.
 */
import { join } from 'node:path';
import { eventually, sleep } from '../../harness/poll.js';
import { REPO_ROOT } from '../../harness/server.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { ContenderName, ScenarioResult } from '../report/results.js';
import { type BenchContext, LatencySet, SampleSet, sized } from './context.js';

const FIXTURES = join(REPO_ROOT, 'bench', 'fixtures');

/** Share of one core the server uses over `seconds` while half of `panes` run `program`. */
async function cpuShare(context: BenchContext, host: HerdrHost, panes: number, program: string, seconds: number): Promise<number> {
  const all = await host.createPanes(panes);
  await host.typeLine(all.slice(0, panes / 2), program);
  await sleep(sized(context, { smoke: 300, quick: 3000, full: 3000 }));
  const before = await host.cpuSeconds();
  await sleep(seconds * 1000);
  const share = ((await host.cpuSeconds()) - before) / seconds;
  await host.closePanes(all);
  context.progress(`agents: ${host.name.padEnd(8)} ${(share * 100).toFixed(1)}% of a core with ${panes / 2} × ${program.split('/').at(-1)}`);
  return share;
}

/** pi (a fixture) prints the moment it turned idle; the sample is how much later the idle event came. */
async function idleLatencies(host: HerdrHost, samples: number): Promise<number[]> {
  const [pane] = await host.createPanes(1);
  if (!pane) return [];
  const arrivals: number[] = [];
  const subscription = await host.client.subscribe([{ type: 'pane.agent_state_changed', pane_id: pane, state: 'idle' }]);
  void (async () => {
    for await (const line of subscription) if (line.event === 'pane.agent_state_changed') arrivals.push(Date.now());
  })();
  const latencies: number[] = [];
  let previous = 0;
  for (let i = 0; i < samples; i++) {
    await host.typeLine([pane], join(FIXTURES, 'agents', 'pi'));
    // A fresh pi is briefly idle before it prints Working... (by the rules): the sample is the first idle after "done".
    const sample = await eventually(async () => {
      const { read } = await host.connection.call('pane.read', { pane_id: pane, source: 'visible' });
      const printed = Number([...read.text.matchAll(/^done (\d+)$/gm)].at(-1)?.[1]);
      const arrived = arrivals.find((at) => at >= printed);
      return printed > previous && arrived !== undefined && { printed, arrived };
    }, 'pi to go idle', 15_000);
    latencies.push(sample.arrived - sample.printed);
    previous = sample.printed;
    if (i < samples - 1) await sleep(4000); // the agent's linger ends before the next run
  }
  subscription.close();
  await host.closePanes([pane]);
  return latencies;
}

export async function agentsScenario(context: BenchContext): Promise<ScenarioResult> {
  const panes = sized(context, { smoke: 4, quick: 300, full: 300 });
  const seconds = sized(context, { smoke: 0.5, quick: 5, full: 10 });
  const samples = sized(context, { smoke: 1, quick: 3, full: 6 });
  const share = new SampleSet();
  const latency = new LatencySet();
  for (const name of context.hostNames.filter((host): host is Exclude<ContenderName, 'tmux' | 'ceiling' | 'parse'> => host !== 'tmux')) {
    const host = context.socket ? await HerdrHost.attach(context.environment, context.socket) : await HerdrHost.start(context.environment, name === 'herdr-1' ? 1 : undefined);
    try {
      const detected = await cpuShare(context, host, panes, join(FIXTURES, 'agents', 'claude'), seconds);
      const plain = await cpuShare(context, host, panes, join(FIXTURES, 'spinner'), seconds);
      share.add(name, Math.max(0, detected - plain) * 100);
      latency.add(name, await idleLatencies(host, samples));
    } finally {
      await host.stop();
    }
  }
  return {
    id: 'agents',
    title: `Agent detection, ${panes} panes`,
    method: `${panes / 2} of ${panes} panes redraw a spinner 10×/s; server CPU over ${seconds} s when they are detected as claude minus the same program under a plain name. Then a pi fixture prints the moment it turns idle; ${samples} samples of how much later pane.agent_state_changed (idle) arrives.`,
    metrics: [share.metric(`detector's share, ${panes / 2} busy agents`, '% of a core', 'lower'), latency.metric('screen idle → agent_state_changed', 50), latency.metric('screen idle → agent_state_changed', 99)],
    targets: [],
  };
}
