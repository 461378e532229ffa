/** The shape of a bench run's results: what run.ts collects and the reports print. */
import type { HostName } from '../contenders/host.js';

/** `parse`: the flood's parse floor, our panes' parsing alone on the same input (contenders/parse-floor.ts). */
export type ContenderName = HostName | 'ceiling' | 'parse';

export const CONTENDER_LABELS: Record<ContenderName, string> = {
  herdr: 'herdr',
  'herdr-1': 'herdr --workers 1',
  tmux: 'tmux',
  ceiling: 'ceiling',
  parse: 'parse floor (emulator alone)',
};

/** How contenders line up in tables and charts. */
export const CONTENDER_ORDER: readonly ContenderName[] = ['herdr', 'herdr-1', 'tmux', 'ceiling', 'parse'];

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
  /** Markdown lines the report shows at its top, before every scenario (the figures a reader asks first). */
  summary?: string[];
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

/**
 * ours ÷ peer of every repetition (oriented like `advantage`), pairing the
 * two contenders' samples by position: undefined unless both have the same
 * number of them, so a scenario whose repetitions do not line up shows none.
 */
export function perRunAdvantages(metric: Metric, ours: ContenderName, peer: ContenderName): number[] | undefined {
  const a = metric.samples?.[ours];
  const b = metric.samples?.[peer];
  if (!a || !b || a.length === 0 || a.length !== b.length) return undefined;
  const ratios = a.map((value, i) => {
    const other = b[i] ?? NaN;
    return metric.better === 'higher' ? value / other : other / value;
  });
  return ratios.every((ratio) => Number.isFinite(ratio) && ratio > 0) ? ratios : undefined;
}

/** The lowest and highest per-repetition ratio, when there are two or more. */
export function advantageRange(metric: Metric, ours: ContenderName, peer: ContenderName): [number, number] | undefined {
  const ratios = perRunAdvantages(metric, ours, peer);
  return ratios && ratios.length > 1 ? [Math.min(...ratios), Math.max(...ratios)] : undefined;
}

/** A ratio as the reports write it, with the range of the per-run ratios in brackets when there is one. */
export function formatRatio(ratio: number, range?: readonly [number, number]): string {
  return range ? `${ratio.toFixed(2)}× (${range[0].toFixed(2)}–${range[1].toFixed(2)})` : `${ratio.toFixed(2)}×`;
}

/** A figure with sensible digits and its unit. */
export function formatFigure(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return unit === '×' ? `${value.toFixed(digits)}×` : `${value.toFixed(digits)} ${unit}`;
}

/** ours ÷ peer (oriented, > 1 is better) must be at least `atLeast`; unmeasurable when either is absent. */
export function ratioTarget(metric: Metric, ours: ContenderName, peer: ContenderName, atLeast: number, peerLabel = CONTENDER_LABELS[peer]): Target | undefined {
  const ratio = advantage(metric, ours, peer);
  if (ratio === undefined) return undefined;
  const orientation = metric.better === 'higher' ? '' : ' (inverse)';
  return {
    what: `${metric.name}, ${CONTENDER_LABELS[ours]} ÷ ${peerLabel}${orientation}`,
    target: `≥ ${Number(atLeast.toFixed(2))}×`,
    measured: `${ratio.toFixed(2)}×`,
    met: ratio >= atLeast,
  };
}

/** A contender's figure must be at most (for `lower`) or at least (for `higher`) `bound`; `boundLabel` says where a bound measured in the run comes from. */
export function boundTarget(metric: Metric, contender: ContenderName, bound: number, boundLabel?: string): Target | undefined {
  const value = metric.values[contender];
  if (value === undefined || !Number.isFinite(value)) return undefined;
  const lower = metric.better === 'lower';
  return {
    what: `${metric.name}, ${CONTENDER_LABELS[contender]}`,
    target: `${lower ? '≤' : '≥'} ${formatFigure(bound, metric.unit)}${boundLabel ? ` (${boundLabel})` : ''}`,
    measured: formatFigure(value, metric.unit),
    met: lower ? value <= bound : value >= bound,
  };
}

/** Drops the targets that could not be measured in this run (e.g. no tmux). */
export function measured(targets: Array<Target | undefined>): Target[] {
  return targets.filter((target): target is Target => target !== undefined);
}
