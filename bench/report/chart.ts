/**
 * The SVG chart of a run: for every metric of every scenario, one bar per
 * contender (ours beside tmux and the ceiling), scaled to the metric's
 * largest figure, with the figure written at the bar's end.
 */
import { type BenchResults, CONTENDER_LABELS, CONTENDER_ORDER, type ContenderName, formatFigure } from './results.js';

const COLORS: Record<ContenderName, string> = { herdr: '#2f6fdb', 'herdr-1': '#8fb3ee', tmux: '#e0803a', ceiling: '#9a9a9a' };
const WIDTH = 860;
const LABEL_WIDTH = 300;
const BAR_AREA = 440;
const BAR = 14;
const GAP = 4;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function svgChart(results: BenchResults): string {
  const parts: string[] = [];
  let y = 40;
  parts.push(`<text x="12" y="24" font-size="16" font-weight="bold">herdr bench ${escape(results.date)} (${results.mode})</text>`);
  let legendX = 360;
  for (const contender of CONTENDER_ORDER) {
    parts.push(`<rect x="${legendX}" y="12" width="12" height="12" fill="${COLORS[contender]}"/>`);
    parts.push(`<text x="${legendX + 16}" y="23" font-size="12">${escape(CONTENDER_LABELS[contender])}</text>`);
    legendX += 24 + CONTENDER_LABELS[contender].length * 7;
  }
  for (const scenario of results.scenarios) {
    y += 18;
    parts.push(`<text x="12" y="${y}" font-size="14" font-weight="bold">${escape(scenario.title)}</text>`);
    y += 8;
    for (const metric of scenario.metrics) {
      const bars = CONTENDER_ORDER.filter((c) => metric.values[c] !== undefined && Number.isFinite(metric.values[c]));
      if (bars.length === 0) continue;
      const largest = Math.max(...bars.map((c) => metric.values[c] ?? 0), Number.MIN_VALUE);
      const top = y + 6;
      parts.push(`<text x="12" y="${top + BAR}" font-size="12">${escape(metric.name)}${metric.better === 'lower' ? ' (lower is better)' : ''}</text>`);
      for (const [i, contender] of bars.entries()) {
        const value = metric.values[contender] ?? 0;
        const barY = top + i * (BAR + GAP);
        const length = Math.max(1, (value / largest) * BAR_AREA);
        parts.push(`<rect x="${LABEL_WIDTH}" y="${barY}" width="${length.toFixed(1)}" height="${BAR}" fill="${COLORS[contender]}"/>`);
        parts.push(`<text x="${(LABEL_WIDTH + length + 4).toFixed(1)}" y="${barY + BAR - 3}" font-size="11">${escape(formatFigure(value, metric.unit))}</text>`);
      }
      y = top + bars.length * (BAR + GAP) + 6;
    }
  }
  const height = y + 16;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
