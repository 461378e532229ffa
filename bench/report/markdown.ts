/** The markdown summary of a run: per scenario, every contender's figure and the ratios, then the targets. */
import { type BenchResults, CONTENDER_LABELS, CONTENDER_ORDER, type ContenderName, type Metric, type ScenarioResult, advantage, advantageRange, formatFigure, formatRatio } from './results.js';

const RATIOS: Array<[ContenderName, ContenderName, string]> = [
  ['herdr', 'tmux', 'herdr ÷ tmux'],
  ['herdr', 'herdr-1', 'default ÷ 1 shard'],
  ['herdr', 'ceiling', 'herdr ÷ ceiling'],
];

function cell(metric: Metric, contender: ContenderName): string {
  const value = metric.values[contender];
  return value === undefined ? '–' : formatFigure(value, metric.unit);
}

/** The ratio of the medians, and in brackets the range of the per-repetition ratios when there are several. */
function ratioCell(metric: Metric, ours: ContenderName, peer: ContenderName): string {
  const ratio = advantage(metric, ours, peer);
  if (ratio === undefined) return '–';
  return formatRatio(ratio, advantageRange(metric, ours, peer));
}

function present<T>(items: readonly T[], has: (item: T) => boolean): T[] {
  return items.filter(has);
}

export function scenarioTable(scenario: ScenarioResult): string {
  const contenders = present(CONTENDER_ORDER, (c) => scenario.metrics.some((m) => m.values[c] !== undefined));
  const ratios = present(RATIOS, ([ours, peer]) => scenario.metrics.some((m) => advantage(m, ours, peer) !== undefined));
  const header = ['', ...contenders.map((c) => CONTENDER_LABELS[c]), ...ratios.map(([, , label]) => label)];
  const rows = scenario.metrics.map((metric) => [
    metric.name,
    ...contenders.map((c) => cell(metric, c)),
    ...ratios.map(([ours, peer]) => ratioCell(metric, ours, peer)),
  ]);
  return [header, header.map((_, i) => (i === 0 ? '---' : '---:')), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

export function markdownReport(results: BenchResults): string {
  const { machine } = results;
  const lines = [
    `# herdr bench, ${results.date} (${results.mode})`,
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Linux ${machine.kernel}, Node ${machine.node}, ${machine.tmux ?? 'no tmux'}.` +
      ` ${results.socket ? `Against the running server at ${results.socket}.` : 'Every contender started by the bench in the same clean environment.'}` +
      ` Run took ${Math.round(results.durationSeconds)} s. Ratios are oriented so that above 1× means herdr is better.`,
  ];
  for (const scenario of results.scenarios) {
    if (scenario.summary?.length) lines.push('', `## At a glance: ${scenario.title}`, '', ...scenario.summary);
  }
  for (const scenario of results.scenarios) {
    lines.push('', `## ${scenario.title}`, '', scenario.method, '', scenarioTable(scenario));
  }
  // Scenarios share metric names (the floods at 100 and 300 panes), so each target says whose it is.
  const targets = results.scenarios.flatMap((scenario) => scenario.targets.map((target) => ({ scenario: scenario.title, ...target })));
  if (targets.length > 0) {
    lines.push('', '## Targets', '', '| scenario | what | target | measured | |', '|---|---|---:|---:|---|');
    for (const target of targets) lines.push(`| ${target.scenario} | ${target.what} | ${target.target} | ${target.measured} | ${target.met ? 'met' : '**missed**'} |`);
  }
  return `${lines.join('\n')}\n`;
}
