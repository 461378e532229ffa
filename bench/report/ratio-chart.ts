/**
 * The floods at a glance: herdr ÷ tmux per corpus and pane count, throughput
 * (herdr's MB/s ÷ tmux's) and CPU per MB (tmux's ÷ herdr's), warm and cold,
 * against the 1× line, the warm bars with the range of the per-run ratios.
 * Drawn at the top of the run's chart (chart.ts) and on its own
 * (`<base>-ratios.svg`, for the README).
 */
import { CORPUS_LABELS, CORPUS_NAMES } from '../corpus/corpora.js';
import { FLOOD_ID, cpuPerMbName, throughputName } from './flood-metrics.js';
import { type BenchResults, type Metric, type ScenarioResult, advantage, advantageRange, formatRatio } from './results.js';

export const RATIO_CHART_WIDTH = 860;
const LEFT = 12;
const ROW_LABEL_WIDTH = 130;
const PANEL_WIDTH = 310;
const PANEL_GAP = 50;
const PANELS = [LEFT + ROW_LABEL_WIDTH, LEFT + ROW_LABEL_WIDTH + PANEL_WIDTH + PANEL_GAP] as const;
const BAR = 10;
const BAR_GAP = 2;
const ROW_GAP = 6;
/** The largest figure takes this share of a panel, so its label fits after it. */
const FILL = 0.82;
const WARM = '#2f6fdb';
const COLD = '#8fb3ee';
const RANGE = '#1a1a1a';
const PARITY = '#c0392b';
const HALO = ' stroke="white" stroke-width="3" paint-order="stroke"';

interface Bar {
  ratio: number | undefined;
  range: [number, number] | undefined;
}

interface Row {
  /** e.g. "100 panes". */
  label: string;
  /** Throughput, then CPU per MB; each warm, then cold. */
  panels: [{ warm: Bar; cold: Bar }, { warm: Bar; cold: Bar }];
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function bar(metric: Metric | undefined): Bar {
  return metric ? { ratio: advantage(metric, 'herdr', 'tmux'), range: advantageRange(metric, 'herdr', 'tmux') } : { ratio: undefined, range: undefined };
}

/** The flood scenarios of the run, fewest panes first. */
function floods(results: BenchResults): ScenarioResult[] {
  const size = (scenario: ScenarioResult) => Number(FLOOD_ID.exec(scenario.id)?.[1]);
  return results.scenarios.filter((scenario) => FLOOD_ID.test(scenario.id)).sort((a, b) => size(a) - size(b));
}

/** "100 panes" as the scenario ran it (its title), else as its id says. */
function panesLabel(scenario: ScenarioResult): string {
  const panes = /(\d+) panes/.exec(scenario.title)?.[1] ?? FLOOD_ID.exec(scenario.id)?.[1] ?? '?';
  return `${panes} panes`;
}

/** Per corpus, a row per flood scenario that has a herdr ÷ tmux figure for it. */
function corpusRows(results: BenchResults): Array<{ corpus: string; rows: Row[] }> {
  const blocks: Array<{ corpus: string; rows: Row[] }> = [];
  for (const corpus of CORPUS_NAMES) {
    const label = CORPUS_LABELS[corpus];
    const rows: Row[] = [];
    for (const scenario of floods(results)) {
      const metric = (name: string) => scenario.metrics.find((m) => m.name === name);
      const row: Row = {
        label: panesLabel(scenario),
        panels: [
          { warm: bar(metric(throughputName(label))), cold: bar(metric(throughputName(label, true))) },
          { warm: bar(metric(cpuPerMbName(label))), cold: bar(metric(cpuPerMbName(label, true))) },
        ],
      };
      if (row.panels.some((panel) => panel.warm.ratio !== undefined || panel.cold.ratio !== undefined)) rows.push(row);
    }
    if (rows.length > 0) blocks.push({ corpus: label, rows });
  }
  return blocks;
}

/** The section's SVG elements, drawn from y = 0 down, and its height; undefined when the run has no herdr ÷ tmux flood figure. */
export function ratioSection(results: BenchResults): { parts: string[]; height: number } | undefined {
  const blocks = corpusRows(results);
  if (blocks.length === 0) return undefined;
  const figures = blocks.flatMap(({ rows }) =>
    rows.flatMap((row) => row.panels.flatMap((panel) => [panel.warm.ratio, panel.cold.ratio, ...(panel.warm.range ?? [])])),
  );
  const largest = Math.max(2, ...figures.filter((value): value is number => value !== undefined));
  const scale = (PANEL_WIDTH * FILL) / largest;
  const parts: string[] = [];
  let y = 20;
  parts.push(`<text x="${LEFT}" y="${y}" font-size="15" font-weight="bold">Floods, herdr ÷ tmux (above 1× herdr is better)</text>`);
  y += 20;
  // Legend.
  let x = LEFT;
  for (const [color, text] of [
    [WARM, 'warm (median of the warm runs)'],
    [COLD, 'cold (the first flood on fresh servers)'],
  ] as const) {
    parts.push(`<rect x="${x}" y="${y - 10}" width="12" height="${BAR}" fill="${color}"/>`);
    parts.push(`<text x="${x + 16}" y="${y}" font-size="11">${escape(text)}</text>`);
    x += 28 + text.length * 5.5;
  }
  parts.push(`<line x1="${x}" y1="${y - 5}" x2="${x + 22}" y2="${y - 5}" stroke="${RANGE}" stroke-width="1.2"/>`);
  parts.push(`<text x="${x + 26}" y="${y}" font-size="11">range of the per-run ratios</text>`);
  y += 22;
  // Panel headings and axes.
  const headings = ['throughput: herdr MB/s ÷ tmux MB/s', 'CPU per MB: tmux ÷ herdr'];
  const axisTop = y + 6;
  for (const [i, left] of PANELS.entries()) parts.push(`<text x="${left}" y="${y}" font-size="12" font-weight="bold">${escape(headings[i] ?? '')}</text>`);
  y = axisTop + 14;
  const rowHeight = 2 * BAR + BAR_GAP + ROW_GAP;
  const bodyTop = y;
  // Bars under the 1× line, their figures over it (with a white halo, so the line does not cross them out).
  const drawn: string[] = [];
  const labels: string[] = [];
  for (const { corpus, rows } of blocks) {
    y += 4;
    drawn.push(`<text x="${LEFT}" y="${y + 10}" font-size="12" font-weight="bold">${escape(corpus)}</text>`);
    y += 16;
    for (const row of rows) {
      drawn.push(`<text x="${LEFT + 10}" y="${y + BAR + 4}" font-size="11">${escape(row.label)}</text>`);
      for (const [p, panel] of row.panels.entries()) {
        const left = PANELS[p] ?? 0;
        for (const [k, [which, color]] of ([['warm', WARM], ['cold', COLD]] as const).entries()) {
          const { ratio, range } = panel[which];
          const top = y + k * (BAR + BAR_GAP);
          if (ratio === undefined) {
            labels.push(`<text x="${left + 4}" y="${top + BAR - 1}" font-size="10" fill="#777">–</text>`);
            continue;
          }
          const length = Math.max(1, ratio * scale);
          drawn.push(`<rect x="${left}" y="${top}" width="${length.toFixed(1)}" height="${BAR}" fill="${color}"/>`);
          let textX = left + length + 4;
          if (range) {
            const [low, high] = range.map((value) => left + value * scale);
            const mid = top + BAR / 2;
            drawn.push(
              `<line x1="${(low ?? 0).toFixed(1)}" y1="${mid}" x2="${(high ?? 0).toFixed(1)}" y2="${mid}" stroke="${RANGE}" stroke-width="1.2"/>`,
              `<line x1="${(low ?? 0).toFixed(1)}" y1="${mid - 3}" x2="${(low ?? 0).toFixed(1)}" y2="${mid + 3}" stroke="${RANGE}" stroke-width="1.2"/>`,
              `<line x1="${(high ?? 0).toFixed(1)}" y1="${mid - 3}" x2="${(high ?? 0).toFixed(1)}" y2="${mid + 3}" stroke="${RANGE}" stroke-width="1.2"/>`,
            );
            textX = Math.max(textX, (high ?? 0) + 4);
          }
          const text = formatRatio(ratio, range);
          labels.push(`<text x="${textX.toFixed(1)}" y="${top + BAR - 1}" font-size="10"${HALO}>${escape(text)}</text>`);
        }
      }
      y += rowHeight;
    }
  }
  const bottom = y;
  // A line per whole ratio under the bars; 1× (parity with tmux) over them.
  const parity: string[] = [];
  for (const left of PANELS) {
    for (let ratio = 0; ratio <= largest / FILL; ratio++) {
      const gx = (left + ratio * scale).toFixed(1);
      const isParity = ratio === 1;
      (isParity ? parity : parts).push(
        `<line x1="${gx}" y1="${bodyTop + 2}" x2="${gx}" y2="${bottom}" stroke="${isParity ? PARITY : '#dddddd'}" stroke-width="${isParity ? 1.5 : 1}"${isParity ? ' stroke-dasharray="4 3"' : ''}/>`,
      );
      parts.push(`<text x="${gx}" y="${bodyTop - 2}" font-size="10" text-anchor="middle" fill="${isParity ? PARITY : '#777'}">${ratio}×</text>`);
    }
  }
  parts.push(...drawn, ...parity, ...labels);
  return { parts, height: bottom + 8 };
}

/** The section as an SVG of its own; undefined when there is nothing to draw. */
export function ratioChart(results: BenchResults): string | undefined {
  const section = ratioSection(results);
  if (!section) return undefined;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${RATIO_CHART_WIDTH}" height="${section.height}" viewBox="0 0 ${RATIO_CHART_WIDTH} ${section.height}" font-family="sans-serif">`,
    `<rect width="${RATIO_CHART_WIDTH}" height="${section.height}" fill="white"/>`,
    ...section.parts,
    '</svg>',
    '',
  ].join('\n');
}
