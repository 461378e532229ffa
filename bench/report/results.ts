/** The shape of a bench run's results: what run.ts collects and the reports print. */
import type { HostName } from '../contenders/host.js';

export type ContenderName = HostName | 'ceiling';

export const CONTENDER_LABELS: Record<ContenderName, string> = {
  herdr: 'herdr',
  'herdr-1': 'herdr --workers 1',
  tmux: 'tmux',
  ceiling: 'raw PTY ceiling',
};

export interface Metric {
  /** e.g. "aggregate throughput". */
  name: string;
  unit: string;
  /** Which way is better, for ratios and the chart. */
  better: 'higher' | 'lower';
  /** The median over repetitions, by contender; absent where a contender has no such figure. */
  values: Partial<Record<ContenderName, number>>;
  /** Every repetition's figure, by contender. */
  samples?: Partial<Record<ContenderName, number[]>>;
}

export interface Target {
  what: string;
  /** e.g. "≥ 1.5× tmux". */
  target: string;
  measured: string;
  met: boolean;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** What was done, in a sentence or two (sizes, samples, repetitions). */
  method: string;
  metrics: Metric[];
  targets: Target[];
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  kernel: string;
  node: string;
  tmux: string | undefined;
}

export interface BenchResults {
  date: string;
  mode: 'full' | 'quick' | 'smoke';
  machine: MachineInfo;
  /** Against an already running server (`--socket`), else undefined. */
  socket: string | undefined;
  durationSeconds: number;
  scenarios: ScenarioResult[];
}

/** ours ÷ peer, oriented so that > 1 means ours is better. */
export function advantage(metric: Metric, ours: ContenderName, peer: ContenderName): number | undefined {
  const a = metric.values[ours];
  const b = metric.values[peer];
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a === 0 || b === 0) return undefined;
  return metric.better === 'higher' ? a / b : b / a;
}
