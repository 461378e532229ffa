/** What every scenario gets: the mode's sizes, the clean environment, the contenders, progress output. */
import type { BenchEnvironment } from '../environment.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { HostName, PaneHost } from '../contenders/host.js';
import { TmuxHost } from '../contenders/tmux.js';
import type { ContenderName, Metric } from '../report/results.js';
import { median } from '../measure.js';

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
  progress(message: string): void;
}

/** Picks the figure for the mode: smoke, quick, full. */
export function sized<T>(context: BenchContext, sizes: { smoke: T; quick: T; full: T }): T {
  return sizes[context.mode];
}

export async function startHost(context: BenchContext, name: HostName): Promise<PaneHost> {
  if (context.socket) return HerdrHost.attach(context.environment, context.socket);
  if (name === 'tmux') return TmuxHost.start(context.environment);
  return HerdrHost.start(context.environment, name === 'herdr-1' ? 1 : undefined);
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
