/**
 * A tile's picture: the cells of an xterm.js terminal's buffer (parsed from
 * the pane's stream by xterm.js itself) painted small onto a canvas, at most
 * once per animation frame and only after something was written.
 *
 * Why not xterm.js's own renderer at this size: its DOM renderer measures
 * every new glyph of every terminal with a forced layout of the page, and
 * 100 of them spent a whole core on that alone (bench `web`, ARCHITECTURE.md
 * "herdr web"); its WebGL renderer needs a GL context per terminal, and a
 * browser grants about 16. The pane opened large is drawn by xterm.js.
 */
import type { IBufferCell, IBufferLine, Terminal } from '@xterm/xterm';
import type { TileMetrics } from '../wire.js';

/** A cell's height over its width, as in common monospace fonts. */
export const CELL_ASPECT = 2.1;
/**
 * Below this many device pixels per cell a glyph is a smudge whatever is drawn: text is painted as a bar
 * per run of one colour (the shape and colours of the screen, as a minimap), which costs a fillRect where
 * a fillText costs ten times more (shaping included).
 */
const MIN_TEXT_CELL_PX = 4;
const DEFAULT_FG = '#d6dde6';
const DEFAULT_BG = '#0d1117';
const FONT_FAMILY = '"DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace';
/** xterm's 16 colours. */
const ANSI = ['#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5', '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff'];

/** The 256-colour palette: the 16, a 6×6×6 cube, 24 greys. */
const PALETTE: string[] = (() => {
  const palette = [...ANSI];
  const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
  for (let i = 0; i < 216; i++) palette.push(rgb((level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6)));
  for (let i = 0; i < 24; i++) {
    const grey = 8 + i * 10;
    palette.push(rgb((grey << 16) | (grey << 8) | grey));
  }
  return palette;
})();

function rgb(value: number): string {
  return `#${value.toString(16).padStart(6, '0')}`;
}

function foreground(cell: IBufferCell): string {
  if (cell.isFgRGB()) return rgb(cell.getFgColor());
  if (cell.isFgPalette()) return PALETTE[cell.getFgColor()] ?? DEFAULT_FG;
  return DEFAULT_FG;
}

function background(cell: IBufferCell): string | undefined {
  if (cell.isBgRGB()) return rgb(cell.getBgColor());
  if (cell.isBgPalette()) return PALETTE[cell.getBgColor()];
  return undefined;
}

/** A row's cells (code, colours, attributes) folded into one number: equal rows paint alike. */
function rowHash(line: IBufferLine, cols: number, cell: IBufferCell): number {
  let hash = 0x811c9dc5;
  for (let x = 0; x < cols; x++) {
    line.getCell(x, cell);
    hash = Math.imul(hash ^ cell.getCode(), 0x01000193);
    hash = Math.imul(hash ^ cell.getFgColorMode() ^ cell.getFgColor(), 0x01000193);
    hash = Math.imul(hash ^ cell.getBgColorMode() ^ cell.getBgColor(), 0x01000193);
    hash = Math.imul(hash ^ (cell.isInverse() | (cell.isInvisible() << 1) | (cell.getWidth() << 2)), 0x01000193);
  }
  return hash;
}

/**
 * Tiles are painted together, at most `fps` times a second: every browser frame has a fixed cost
 * (paint, composite of the whole page), so twenty tiles that each paint ten times a second at their
 * own moments would make the page draw up to sixty frames a second instead of ten.
 */
const painter = {
  intervalMs: 100,
  dirty: new Set<TileCanvas>(),
  scheduled: false,
  lastPaint: -Infinity,
};

function schedulePaint(): void {
  if (painter.scheduled) return;
  painter.scheduled = true;
  const wait = Math.max(0, painter.lastPaint + painter.intervalMs - performance.now());
  window.setTimeout(
    () =>
      requestAnimationFrame(() => {
        painter.scheduled = false;
        painter.lastPaint = performance.now();
        const tiles = [...painter.dirty];
        painter.dirty.clear();
        for (const tile of tiles) tile.paint();
      }),
    wait,
  );
}

export class TileCanvas {
  /** Frames painted (PageProbe.tileFrames counts them over every tile). */
  static frames = 0;

  /** Tile frames per second (herdr web's --fps). */
  static set fps(fps: number) {
    painter.intervalMs = 1000 / Math.max(1, fps);
  }

  private readonly context: CanvasRenderingContext2D;
  private readonly cell: IBufferCell;
  private cellWidth = 0;
  private font = '';
  /** What each row of the canvas shows now (rowHash); NaN: unknown, paint it. */
  private painted = new Float64Array(0);
  private disposed = false;

  constructor(
    private readonly term: Terminal,
    readonly canvas: HTMLCanvasElement,
  ) {
    const context = canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('no 2D canvas');
    this.context = context;
    this.cell = term.buffer.active.getNullCell();
    term.onWriteParsed(() => this.invalidate());
  }

  /** The canvas's size for this CSS width (the pane's shape kept); repainted whole. */
  fit(cssWidth: number): void {
    const { cols, rows } = this.term;
    if (cssWidth <= 0 || cols <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    const cssHeight = Math.round((cssWidth * rows * CELL_ASPECT) / cols);
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.width = Math.round(cssWidth * ratio);
    this.canvas.height = Math.round(cssHeight * ratio);
    this.cellWidth = this.canvas.width / cols;
    // A font whose advance is one cell: measured once at a known size, then scaled.
    this.context.font = `100px ${FONT_FAMILY}`;
    const advance = this.context.measureText('M').width / 100;
    this.font = `${(this.cellWidth / advance).toFixed(2)}px ${FONT_FAMILY}`;
    this.painted = new Float64Array(rows).fill(NaN);
    this.context.fillStyle = DEFAULT_BG;
    this.context.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.invalidate();
  }

  /** How the screen is drawn now, in CSS pixels (PageProbe.tileMetrics). */
  metrics(): TileMetrics {
    const ratio = window.devicePixelRatio || 1;
    const { cols, rows } = this.term;
    return {
      cols,
      rows,
      width: parseFloat(this.canvas.style.width) || 0,
      cellWidth: this.cellWidth / ratio,
      cellHeight: this.canvas.height / Math.max(1, rows) / ratio,
      fontPx: (parseFloat(this.font) || 0) / ratio,
      glyphs: this.cellWidth >= MIN_TEXT_CELL_PX,
    };
  }

  invalidate(): void {
    painter.dirty.add(this);
    schedulePaint();
  }

  /** Stops painting (the tile is gone). */
  dispose(): void {
    painter.dirty.delete(this);
    this.disposed = true;
  }

  /** Paints the rows that changed; rows that only moved up (output scrolling) are copied, not painted. */
  paint(): void {
    const { term, cell } = this;
    if (this.disposed) return;
    if (this.cellWidth === 0) return;
    if (this.painted.length !== term.rows) return this.fit(parseFloat(this.canvas.style.width));
    TileCanvas.frames++;
    const buffer = term.buffer.active;
    const hashes = new Float64Array(term.rows);
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      hashes[y] = line ? rowHash(line, term.cols, cell) : NaN;
    }
    this.scrollBy(this.scrolled(hashes));
    this.context.font = this.font;
    this.context.textBaseline = 'middle';
    for (let y = 0; y < term.rows; y++) {
      if (hashes[y] === this.painted[y]) continue;
      const line = buffer.getLine(buffer.viewportY + y);
      if (line) this.paintRow(line, y);
      this.painted[y] = hashes[y] ?? NaN;
    }
  }

  /** How many rows the screen moved up since the last paint, when that explains more rows than staying put. */
  private scrolled(hashes: Float64Array): number {
    const rows = hashes.length;
    let best = 0;
    let bestMatches = 0;
    for (let y = 0; y < rows; y++) if (hashes[y] === this.painted[y]) bestMatches++;
    for (let shift = 1; shift < rows; shift++) {
      if (hashes[0] !== this.painted[shift]) continue;
      let matches = 0;
      for (let y = 0; y + shift < rows; y++) if (hashes[y] === this.painted[y + shift]) matches++;
      if (matches > bestMatches) {
        best = shift;
        bestMatches = matches;
      }
    }
    return best;
  }

  private scrollBy(shift: number): void {
    if (shift === 0) return;
    const { canvas, painted } = this;
    const rowHeight = canvas.height / painted.length;
    const kept = canvas.height - shift * rowHeight;
    this.context.drawImage(canvas, 0, shift * rowHeight, canvas.width, kept, 0, 0, canvas.width, kept);
    painted.copyWithin(0, shift);
    painted.fill(NaN, painted.length - shift);
  }

  private paintRow(line: IBufferLine, y: number): void {
    const { context, cellWidth, term, cell } = this;
    const cellHeight = this.canvas.height / term.rows;
    const top = y * cellHeight;
    const asText = cellWidth >= MIN_TEXT_CELL_PX;
    context.fillStyle = DEFAULT_BG;
    context.fillRect(0, top, this.canvas.width, cellHeight);
    // Backgrounds first (text must not be painted over), a run of one colour at a time.
    let bgStart = 0;
    let bgColour: string | undefined;
    for (let x = 0; x <= term.cols; x++) {
      let bg: string | undefined;
      if (x < term.cols) {
        line.getCell(x, cell);
        bg = cell.isInverse() ? foreground(cell) : background(cell);
        if (bg === bgColour) continue;
      }
      if (bgColour !== undefined) {
        context.fillStyle = bgColour;
        context.fillRect(bgStart * cellWidth, top, (x - bgStart) * cellWidth, cellHeight);
      }
      bgColour = bg;
      bgStart = x;
    }
    // Then text, a run of one colour at a time: glyphs, or bars below MIN_TEXT_CELL_PX.
    let run = '';
    let runX = 0;
    let runColour = '';
    const flush = () => {
      if (run.trim() !== '') {
        context.fillStyle = runColour;
        if (asText) context.fillText(run, runX * cellWidth, top + cellHeight / 2);
        else this.bars(run, runX, top, cellHeight);
      }
      run = '';
    };
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      const width = cell.getWidth();
      if (width === 0) continue;
      const chars = cell.getChars();
      const colour = cell.isInverse() ? (background(cell) ?? DEFAULT_BG) : foreground(cell);
      // A wide or unusual glyph may not advance one cell: it gets a run of its own.
      const plain = width === 1 && chars.length === 1 && chars.charCodeAt(0) < 0x2600;
      if (!plain || colour !== runColour || run === '') {
        flush();
        runX = x;
        runColour = colour;
      }
      run += cell.isInvisible() || chars === '' ? ' ' : chars;
      if (!plain) flush();
    }
    flush();
  }

  /** A run's words as bars a third of the cell high, the spaces between them left out. */
  private bars(text: string, firstX: number, top: number, cellHeight: number): void {
    const barTop = top + cellHeight / 3;
    const barHeight = Math.max(1, cellHeight / 3);
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const blank = i === text.length || text.charCodeAt(i) === 32;
      if (!blank && start < 0) start = i;
      if (blank && start >= 0) {
        this.context.fillRect((firstX + start) * this.cellWidth, barTop, (i - start) * this.cellWidth, barHeight);
        start = -1;
      }
    }
  }
}
