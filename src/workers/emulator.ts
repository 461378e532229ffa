/**
 * The pane's terminal emulator (@xterm/headless), and the places where we
 * reach past its public API. Each is checked where it is used (writeSync
 * when a pane starts; the others fall back to the public API or to parsing
 * everything) and by test/xterm-internals.test.ts, which fails loudly if a
 * new xterm changes one (the version is pinned exactly in package.json):
 *
 * - Synchronous parsing (`_core.writeSync`). The public `write` parses on a
 *   later timer turn (≥ 1 ms in Node) and hands back a callback per chunk; a
 *   shard with 50 busy panes spent ~31% of a flood idle between those turns.
 *   Parsing inside the PTY's data callback also gives flow control for free:
 *   while we parse we do not read, so a flooding program blocks in write(2).
 * - A row's cell words (`_line._data`, `_line._combined`), so a row becomes
 *   UTF-8 bytes in one pass (row-text.ts) instead of a char-by-char string.
 *   Without them row-text.ts falls back to the public per-cell API.
 * - A marker on the normal buffer while the alternate screen is up
 *   (`_core.buffers.normal.addMarker`): the public `registerMarker` refuses
 *   then, and a resize of a full-screen program's pane reflows the normal
 *   buffer underneath it (scrollback-capture.ts).
 * - The printing state (`_core.buffer` scroll margins and cursor,
 *   `_core._inputHandler._curAttrData`, `_core._charsetService.charset`), to
 *   know that plain lines would print as themselves (`printsPlainLines`), so
 *   lines that only scroll through can skip the emulator (output-parser.ts).
 *   Without them nothing skips; the output is parsed in full.
 * - What @xterm/addon-serialize leaves out of a screen's redraw
 *   (screen-redraw.ts): the scroll margins, cursor visibility and the
 *   mouse's report encoding (`_core.buffer`, `_core.coreService`,
 *   `_core.coreMouseService`). Without them the redraw lacks just those.
 * - The rows each parse changed (`_core._inputHandler.onRequestRefreshRows`, what a
 *   renderer repaints), so the agent checks' screen text re-encodes only those
 *   (visible-text.ts). Without it every read encodes every row.
 * - The width of a character by the active Unicode version
 *   (`_core.unicodeService.wcwidth`), to find cell columns in a history row,
 *   which is kept as text (selection-reader.ts). Without it every character
 *   counts one column.
 */
import unicode11 from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import type { IBufferLine, IMarker } from '@xterm/headless';

const { Terminal } = xtermHeadless;
const { Unicode11Addon } = unicode11;
export type Emulator = InstanceType<typeof Terminal>;

/**
 * Rows of emulator scrollback. Rows that scroll off the screen are copied out
 * of it after every write (scrollback-capture.ts); writes are sized so one
 * cannot scroll more than SCROLLBACK_ROWS − 1 rows (write-sizing.ts). The
 * scrollback stays full once used, so xterm recycles its row objects instead
 * of allocating one per scrolled row.
 */
export const SCROLLBACK_ROWS = 100;

export function createEmulator(cols: number, rows: number): { term: Emulator; writeSync: (data: Uint8Array) => void } {
  // logLevel off: writeSync logs a deprecation warning otherwise.
  const term = new Terminal({ cols, rows, scrollback: SCROLLBACK_ROWS, allowProposedApi: true, logLevel: 'off' });
  // Widths as the agent CLIs lay their screens out (current Unicode: an emoji takes two columns),
  // not xterm's default Unicode 6 (one), under which every row with an emoji drifts.
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  // `term.buffer` checks the proposed-API option through xterm's options proxy on every read
  // (~90 ns, against ~13 for a plain property), and the shards read it per row, per write and per
  // fact: it is the same object for the terminal's life, so it is kept as one.
  Object.defineProperty(term, 'buffer', { value: term.buffer, enumerable: true });
  return { term, writeSync: synchronousWriter(term) };
}

interface CoreView {
  _core?: { writeSync?: unknown };
}

export function synchronousWriter(term: Emulator): (data: Uint8Array) => void {
  const core = (term as unknown as CoreView)._core;
  const writeSync = core?.writeSync;
  if (typeof writeSync !== 'function') {
    throw new Error('@xterm/headless has no _core.writeSync: this xterm version is not supported (see src/workers/emulator.ts)');
  }
  return (data) => (writeSync as (this: unknown, data: Uint8Array) => void).call(core, data);
}

interface BufferSetView {
  _core?: { buffers?: { normal?: { addMarker?: unknown } } };
}

/** A marker on row `line` (0 = oldest scrollback row) of the normal buffer, whichever buffer is active. */
export function markNormalRow(term: Emulator, line: number): IMarker | undefined {
  const normal = (term as unknown as BufferSetView)._core?.buffers?.normal;
  const addMarker = normal?.addMarker;
  if (typeof addMarker === 'function') return (addMarker as (this: unknown, y: number) => IMarker).call(normal, line);
  const buffer = term.buffer.normal;
  if (term.buffer.active.type !== 'normal') return undefined;
  return term.registerMarker(line - buffer.baseY - buffer.cursorY);
}

/**
 * A row as xterm stores it (its internal BufferLine): 3 words a cell
 * (content, fg, bg), the cells holding combined strings, its width and
 * whether it continues the row before.
 */
export interface RowCells {
  readonly _data: Uint32Array;
  readonly _combined: Record<number, string>;
  readonly length: number;
  readonly isWrapped: boolean;
}

function isRowCells(row: unknown): row is RowCells {
  const candidate = row as Partial<RowCells> | undefined;
  return (
    candidate?._data instanceof Uint32Array &&
    typeof candidate._combined === 'object' &&
    candidate._combined !== null &&
    typeof candidate.length === 'number' &&
    candidate._data.length >= candidate.length * 3
  );
}

interface LineView {
  _line?: unknown;
}

/** The cells behind a public row, or undefined when they are not where we expect. */
export function rowCellsOf(line: IBufferLine): RowCells | undefined {
  const internal = (line as unknown as LineView)._line;
  return isRowCells(internal) ? internal : undefined;
}

interface NormalLinesView {
  _core?: { buffers?: { normal?: { lines?: { get?: unknown } } } };
}

/**
 * Row `y` of the normal buffer (0 = oldest scrollback row) without the public
 * API's wrapper object (one a row adds up at flood rates); undefined when the
 * internals are not as expected, and the caller takes the public way.
 */
export function normalRowCells(term: Emulator, y: number): RowCells | undefined {
  const lines = (term as unknown as NormalLinesView)._core?.buffers?.normal?.lines;
  const get = lines?.get;
  if (typeof get !== 'function') return undefined;
  const row: unknown = (get as (this: unknown, y: number) => unknown).call(lines, y);
  return isRowCells(row) ? row : undefined;
}

/** Cell content word layout (xterm's `Content`): code point, "combined" flag, width. */
export const CONTENT_CODEPOINT_MASK = 0x1fffff;
export const CONTENT_IS_COMBINED = 0x200000;
export const CONTENT_HAS_CONTENT = 0x3fffff;
export const CONTENT_WIDTH_SHIFT = 22;

interface PrintStateView {
  _core?: {
    buffer?: { x?: unknown; y?: unknown; ybase?: unknown; scrollTop?: unknown; scrollBottom?: unknown };
    _inputHandler?: { _curAttrData?: { fg?: unknown; bg?: unknown } };
    _charsetService?: { charset?: unknown };
  };
}

/**
 * Whether a line of printable ASCII, at most `cols` long and ended by CR LF,
 * printed now would become exactly one row holding exactly its characters,
 * and scroll the top row of the screen into the scrollback: the normal
 * screen is active with no scroll margins, the cursor is at the start of the
 * bottom row and that row is blank, no attribute (colour, bold…) or
 * character set (line drawing) is in effect, and insert mode is off. Then
 * every following such line finds the same state.
 */
export function printsPlainLines(term: Emulator): boolean {
  const core = (term as unknown as PrintStateView)._core;
  const buffer = core?.buffer;
  const attributes = core?._inputHandler?._curAttrData;
  if (!buffer || !attributes || !core?._charsetService) return false;
  const rows = term.rows;
  if (
    term.buffer.active.type !== 'normal' ||
    buffer.x !== 0 ||
    buffer.y !== rows - 1 ||
    buffer.scrollTop !== 0 ||
    buffer.scrollBottom !== rows - 1 ||
    attributes.fg !== 0 ||
    attributes.bg !== 0 ||
    core._charsetService.charset !== undefined ||
    term.modes.insertMode
  ) {
    return false;
  }
  const cursorRow = typeof buffer.ybase === 'number' ? normalRowCells(term, buffer.ybase + rows - 1) : undefined;
  if (!cursorRow || cursorRow.isWrapped) return false;
  const data = cursorRow._data;
  for (let i = 0; i < cursorRow.length * 3; i += 3) {
    if (((data[i] as number) & CONTENT_HAS_CONTENT) !== 0 || data[i + 1] !== 0 || data[i + 2] !== 0) return false;
  }
  return true;
}

interface TerminalStateView {
  _core?: {
    buffer?: { scrollTop?: unknown; scrollBottom?: unknown };
    coreService?: { isCursorHidden?: unknown };
    coreMouseService?: { activeEncoding?: unknown };
  };
}

function coreOf(term: Emulator): TerminalStateView['_core'] {
  return (term as unknown as TerminalStateView)._core;
}

/** The scroll margins (DECSTBM) of the active buffer, 0-based rows; undefined when not where we expect. */
export function scrollRegion(term: Emulator): { top: number; bottom: number } | undefined {
  const buffer = coreOf(term)?.buffer;
  const top = buffer?.scrollTop;
  const bottom = buffer?.scrollBottom;
  return typeof top === 'number' && typeof bottom === 'number' ? { top, bottom } : undefined;
}

/** Whether the program hid the cursor (DECTCEM); false when unknown. */
export function cursorHidden(term: Emulator): boolean {
  return coreOf(term)?.coreService?.isCursorHidden === true;
}

/** How mouse reports are encoded ('DEFAULT', 'SGR', …); undefined when unknown. */
export function mouseEncoding(term: Emulator): string | undefined {
  const encoding = coreOf(term)?.coreMouseService?.activeEncoding;
  return typeof encoding === 'string' ? encoding : undefined;
}

interface UnicodeServiceView {
  _core?: { unicodeService?: { wcwidth?: unknown } };
}

/** The columns a code point takes by the terminal's active Unicode version (0 for a combining mark); 1 each when that is not where we expect. */
export function cellWidthOf(term: Emulator): (codePoint: number) => number {
  const service = (term as unknown as UnicodeServiceView)._core?.unicodeService;
  const wcwidth = service?.wcwidth;
  if (typeof wcwidth !== 'function') return () => 1;
  return (codePoint) => (wcwidth as (this: unknown, codePoint: number) => number).call(service, codePoint);
}

/** Rows a parse changed, relative to the top of the screen; undefined: all of them. */
export type ChangedRows = { start: number; end: number } | undefined;

interface RefreshRowsView {
  _core?: { _inputHandler?: { onRequestRefreshRows?: unknown } };
}

/**
 * Calls `listener` after each parse with the screen rows it changed (xterm marks every cell it
 * writes, erases or moves within the screen; a scroll moves rows without marking them, so
 * callers also compare row objects). False when the internals are not as expected.
 */
export function onRowsChanged(term: Emulator, listener: (rows: ChangedRows) => void): boolean {
  const event = (term as unknown as RefreshRowsView)._core?._inputHandler?.onRequestRefreshRows;
  if (typeof event !== 'function') return false;
  (event as (listener: (rows: ChangedRows) => void) => unknown)(listener);
  return true;
}
