/**
 * The SVG chart of a run: when it has floods, herdr ÷ tmux per flood at the
 * top (ratio-chart.ts); then for every metric of every scenario, one bar per
 * contender (ours beside tmux and the ceiling), scaled to the metric's
 * largest figure, with the figure written at the bar's end.
 */
import { ratioSection } from './ratio-chart.js';
import { type BenchResults, CONTENDER_LABELS, CONTENDER_ORDER, type ContenderName, formatFigure } from './results.js';

const COLORS: Record<ContenderName, string> = { herdr: '#2f6fdb', 'herdr-1': '#8fb3ee', tmux: '#e0803a', ceiling: '#9a9a9a', parse: '#5aa469' };
const WIDTH = 860;
const LABEL_WIDTH = 300;
const BAR_AREA = 440;
const BAR = 14;
const GAP = 4;
/** Between the lines of a wrapped metric name. */
const LINE = 14;

/** A metric's name in lines that fit left of the bars (about 6 px a character at 12 px). */
function wrapped(text: string): string[] {
  const perLine = Math.floor((LABEL_WIDTH - 20) / 6);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function svgChart(results: BenchResults): string {
  const parts: string[] = [];
  let y = 40;
  parts.push(`<text x="12" y="24" font-size="16" font-weight="bold">herdr bench ${escape(results.date)} (${results.mode})</text>`);
  // The contenders of this run, on as many lines as they need.
  const inRun = CONTENDER_ORDER.filter((c) => results.scenarios.some((s) => s.metrics.some((m) => m.values[c] !== undefined)));
  let legendX = 360;
  let legendY = 12;
  for (const contender of inRun) {
    const width = 24 + CONTENDER_LABELS[contender].length * 7;
    if (legendX + width > WIDTH && legendX > 360) {
      legendX = 360;
      legendY += 16;
    }
    parts.push(`<rect x="${legendX}" y="${legendY}" width="12" height="12" fill="${COLORS[contender]}"/>`);
    parts.push(`<text x="${legendX + 16}" y="${legendY + 11}" font-size="12">${escape(CONTENDER_LABELS[contender])}</text>`);
    legendX += width;
  }
  y = Math.max(y, legendY + 28);
  const ratios = ratioSection(results);
  if (ratios) {
    parts.push(`<g transform="translate(0 ${y})">`, ...ratios.parts, '</g>');
    y += ratios.height;
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
      const label = wrapped(`${metric.name}${metric.better === 'lower' ? ' (lower is better)' : ''}`);
      parts.push(`<text x="12" y="${top + BAR}" font-size="12">${label.map((line, i) => `<tspan x="12" dy="${i === 0 ? 0 : LINE}">${escape(line)}</tspan>`).join('')}</text>`);
      for (const [i, contender] of bars.entries()) {
        const value = metric.values[contender] ?? 0;
        const barY = top + i * (BAR + GAP);
        const length = Math.max(1, (value / largest) * BAR_AREA);
        parts.push(`<rect x="${LABEL_WIDTH}" y="${barY}" width="${length.toFixed(1)}" height="${BAR}" fill="${COLORS[contender]}"/>`);
        parts.push(`<text x="${(LABEL_WIDTH + length + 4).toFixed(1)}" y="${barY + BAR - 3}" font-size="11">${escape(formatFigure(value, metric.unit))}</text>`);
      }
      y = top + Math.max(bars.length * (BAR + GAP), label.length * LINE) + 6;
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
