/** What every scenario gets: the mode's sizes, the clean environment, the contenders, progress output. */
import type { BenchEnvironment } from '../environment.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { HostName, PaneHost } from '../contenders/host.js';
import { TmuxHost } from '../contenders/tmux.js';
import type { ContenderName, Metric } from '../report/results.js';
import { sleep } from '../../harness/poll.js';
import { median, percentile } from '../measure.js';

export type Mode = 'full' | 'quick' | 'smoke';

export interface BenchContext {
  mode: Mode;
  environment: BenchEnvironment;
  /** The hosts to compare, in their base order (or the one attached with --socket). */
  hostNames: HostName[];
  /** Set with --socket: drive that server only. */
  socket: string | undefined;
  /** The raw PTY ceiling runs too (not against a remote server). */
  ceiling: boolean;
  /** Where results go (--out): scenarios write their pictures there too. */
  resultsDir: string;
  /** Node flags for the herdr servers the bench starts (--cpu-prof). */
  herdrNodeArgs: string[];
  progress(message: string): void;
}

/** Picks the figure for the mode: smoke, quick, full. */
export function sized<T>(context: BenchContext, sizes: { smoke: T; quick: T; full: T }): T {
  return sizes[context.mode];
}

export async function startHost(context: BenchContext, name: HostName): Promise<PaneHost> {
  if (context.socket) return HerdrHost.attach(context.environment, context.socket);
  if (name === 'tmux') return TmuxHost.start(context.environment);
  return HerdrHost.start(context.environment, name === 'herdr-1' ? 1 : undefined, context.herdrNodeArgs);
}

/** Every host of the run, started; stopped again however `use` ends. */
export async function withHosts<T>(context: BenchContext, use: (hosts: PaneHost[]) => Promise<T>, names = context.hostNames): Promise<T> {
  const hosts: PaneHost[] = [];
  try {
    for (const name of names) hosts.push(await startHost(context, name));
    return await use(hosts);
  } finally {
    for (const host of hosts) await host.stop().catch(() => undefined);
  }
}

/** The contenders in a different order each repetition, so none always runs first or last. */
export function rotated<T>(items: readonly T[], repetition: number): T[] {
  const shift = repetition % Math.max(1, items.length);
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Collects repetitions by contender and makes a metric of their medians. */
export class SampleSet {
  private readonly samples = new Map<ContenderName, number[]>();

  add(contender: ContenderName, value: number): void {
    const list = this.samples.get(contender) ?? [];
    list.push(value);
    this.samples.set(contender, list);
  }

  metric(name: string, unit: string, better: Metric['better']): Metric {
    const values: Metric['values'] = {};
    const samples: NonNullable<Metric['samples']> = {};
    for (const [contender, list] of this.samples) {
      values[contender] = median(list);
      samples[contender] = list;
    }
    return { name, unit, better, values, samples };
  }
}

/** How long a load is given to get going before anything is measured under it. */
export function loadSettleMs(context: BenchContext): number {
  return sized(context, { smoke: 200, quick: 1500, full: 1500 });
}

/** `count` panes of `host` run `command` (output that never ends, given a moment to get going) while `use` runs; closed after. */
export async function underLoad<T>(context: BenchContext, host: PaneHost, count: number, command: string, use: () => Promise<T>): Promise<T> {
  const load = await host.createPanes(count, command);
  try {
    await sleep(loadSettleMs(context));
    return await use();
  } finally {
    await host.closePanes(load);
  }
}

/** `samples` runs of `action`, `gapMs` apart, returning each one's milliseconds. */
export async function sampleMs(samples: number, gapMs: number, action: (index: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await action(i);
    times.push(performance.now() - start);
    if (gapMs > 0) await sleep(gapMs);
  }
  return times;
}

/** Latency samples pooled by contender, summarised as percentiles. */
export class LatencySet {
  private readonly samples = new Map<ContenderName, number[]>();

  add(contender: ContenderName, values: readonly number[]): void {
    if (values.length === 0) return;
    this.samples.set(contender, [...(this.samples.get(contender) ?? []), ...values]);
  }

  metric(name: string, p: number): Metric {
    const values: Metric['values'] = {};
    for (const [contender, list] of this.samples) values[contender] = percentile(list, p);
    return { name: `${name} p${p}`, unit: 'ms', better: 'lower', values };
  }

  count(contender: ContenderName): number {
    return this.samples.get(contender)?.length ?? 0;
  }
}
