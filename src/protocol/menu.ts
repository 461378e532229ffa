/**
 * A blocked agent's menu, read off its screen: the question and the options
 * below it. Three kinds, from the real CLIs' screens (test/fixtures/screens):
 * - numbered, chosen by number or with the arrows: claude's `❯ 1. Yes` /
 *   `2. No`, gemini's `● 1. Trust folder`, copilot's, codex's `› 1. …`;
 * - arrow-selected, no numbers: cline's `❯ Cline Usage-Billing (OAuth)`
 *   above `ClinePass (OAuth)`, pi's `→ Yes` above `No`, options at the same
 *   indentation;
 * - a row of buttons chosen with ←/→ (opencode's `Allow once   Allow always
 *   Reject` beside `⇆ select  enter confirm`), the selected one told only by its
 *   colours: the caller that has the screen's cells says which (`ButtonStyle`).
 * The last menu on the screen wins (a menu is drawn below what it asks). The
 * question may stand up to a screen above its options (codex's, 9 rows).
 * Pure: the server's shards (approvals), `herdr web`'s page and the tests run it.
 */
export interface MenuOption {
  /** Its number for a numbered menu; its position from 1 for an arrow-selected one. */
  key: string;
  label: string;
}

export interface ScreenMenu {
  kind: 'numbered' | 'arrows' | 'buttons';
  options: MenuOption[];
  /** The option the marker is on (its index), or -1 when none shows one. */
  selected: number;
  /** The nearest question above the options (a line with `?`), when there is one. */
  question?: string;
  /** The last few lines of text above the options: with the labels, what tells this menu from another. */
  context: string[];
}

/**
 * The look (background, inverse) of one character of a screen row, by its offset in that
 * row's text (a JavaScript string offset). Equal strings mean equal looks.
 */
export type ButtonStyle = (row: number, offset: number) => string;

/** Box edges and markers that may stand before an option on its line. */
const EDGE = '│┃|║';
const MARKERS = '❯›▶▸→●◉○◯*\\-';
const NUMBERED = new RegExp(`^[\\s${EDGE}]*([${MARKERS}>])?\\s*(\\d{1,2})[.)]\\s+(\\S.*?)[\\s${EDGE}]*$`, 'u');
/** An arrow menu's marked line: only markers a prompt line or a transcript does not use (`>` is a prompt, `●` claude's bullet). */
const MARKED = new RegExp(`^([\\s${EDGE}]*)([❯›▶▸→])\\s+(\\S.*?)[\\s${EDGE}]*$`, 'u');
const SELECTED_MARKERS = new Set(['❯', '›', '▶', '▸', '→', '●', '◉', '>']);
const MAX_OPTIONS = 12;
/** A row of buttons says how to choose among them: opencode's `⇆ select`, or arrows left and right. */
const BUTTON_HINT = /⇆|←\s*\/?\s*→|◀\s*\/?\s*▶/u;
/** How far below its buttons a row's hint may be (a narrow pane moves it down). */
const BUTTON_HINT_ROWS = 2;
/** A segment of a button row that is a key hint, not a button: arrows, or a key's name first (`enter confirm`, `ctrl+f fullscreen`). */
const KEY_HINT = /[⇆←→↑↓]|^(?:enter|esc|escape|tab|space|(?:ctrl|alt|shift|cmd)\+\S+)\b/iu;
const MAX_BUTTONS = 6;
const MAX_BUTTON_CHARS = 32;
/** A spinner or a ticking status line: it changes while the menu waits, so it never names one. */
const TICKING = /^[\u2800-\u28ff✱-❋✢-✧⊛⊕⊙◉◎◍⁂⁕※⍟☼★☆·*]\s|\besc to (?:cancel|interrupt)\b|\(\d+s\b/u;

export function findMenu(lines: readonly string[], style?: ButtonStyle): ScreenMenu | undefined {
  return numberedMenu(lines) ?? arrowMenu(lines) ?? buttonMenu(lines, style);
}

function numberedMenu(lines: readonly string[]): ScreenMenu | undefined {
  let best: { options: MenuOption[]; selected: number; firstRow: number } | undefined;
  let run: { options: MenuOption[]; selected: number; firstRow: number } = { options: [], selected: -1, firstRow: 0 };
  lines.forEach((line, row) => {
    const match = NUMBERED.exec(line);
    if (!match) return;
    const number = Number(match[2]);
    const option = { key: String(number), label: labelOf(match[3] ?? '') };
    if (number === 1) run = { options: [option], selected: -1, firstRow: row };
    else if (number === run.options.length + 1) run.options.push(option);
    else return;
    if (match[1] !== undefined && SELECTED_MARKERS.has(match[1])) run.selected = run.options.length - 1;
    if (run.options.length >= 2 && run.options.length <= MAX_OPTIONS) best = { ...run, options: [...run.options] };
  });
  if (!best) return undefined;
  const menu = withQuestion({ kind: 'numbered', options: best.options, selected: best.selected, context: [] }, lines, best.firstRow);
  // A numbered list with neither a marker nor a question above it is a list (gemini's tips), not a menu.
  return menu.selected >= 0 || menu.question !== undefined ? menu : undefined;
}

function arrowMenu(lines: readonly string[]): ScreenMenu | undefined {
  for (let row = lines.length - 1; row >= 0; row--) {
    const match = MARKED.exec(lines[row] ?? '');
    if (!match) continue;
    const textColumn = [...(match[1] ?? '')].length + 2;
    const sibling = (line: string | undefined) => {
      if (line === undefined) return undefined;
      const chars = [...line];
      const before = chars.slice(0, textColumn).join('');
      const text = chars.slice(textColumn).join('').replace(new RegExp(`[\\s${EDGE}]+$`, 'u'), '');
      // Same indentation: only blanks (or a box edge) before the text, and text starting right there.
      if (!new RegExp(`^[\\s${EDGE}]*$`, 'u').test(before) || text === '' || /^\s/.test(text)) return undefined;
      return labelOf(text);
    };
    const above: string[] = [];
    for (let up = row - 1; up >= 0 && above.length < MAX_OPTIONS; up--) {
      const text = sibling(lines[up]);
      if (text === undefined) break;
      above.unshift(text);
    }
    const below: string[] = [];
    for (let down = row + 1; down < lines.length && below.length < MAX_OPTIONS; down++) {
      const text = sibling(lines[down]);
      if (text === undefined) break;
      below.push(text);
    }
    const labels = [...above, labelOf(match[3] ?? ''), ...below];
    if (labels.length < 2 || labels.length > MAX_OPTIONS) return undefined;
    const options = labels.map((label, index) => ({ key: String(index + 1), label }));
    return withQuestion({ kind: 'arrows', options, selected: above.length, context: [] }, lines, row - above.length);
  }
  return undefined;
}

/** An option's text: its first column (a wide gap starts a preview or a hint beside it). */
function labelOf(text: string): string {
  return (text.trim().split(/\s{3,}/)[0] ?? '').trim();
}

/**
 * The question: the nearest line above that ends with `?` (else one with `?` in it), up to a
 * screen above; without one, the first line of the box the options are drawn in (opencode's
 * `△ Permission required`). The context: the lines between it and the options (the command
 * asked about), three at most, nothing that ticks while the menu waits (a spinner, a timer).
 */
function withQuestion(menu: ScreenMenu, lines: readonly string[], firstRow: number): ScreenMenu {
  const above: Array<{ row: number; text: string }> = [];
  for (let row = firstRow - 1; row >= 0; row--) {
    const text = trimEdges(lines[row] ?? '');
    if (/\p{L}/u.test(text) && !TICKING.test(text)) above.push({ row, text });
  }
  // A row of buttons asks in its dialog's title (text to the right of a narrow dialog is what it was drawn over).
  const titled = menu.kind === 'buttons' ? boxFirstLine(lines, firstRow) : undefined;
  const asked = titled ?? above.find(({ text }) => text.endsWith('?')) ?? above.find(({ text }) => text.includes('?'));
  const question = asked ?? boxFirstLine(lines, firstRow);
  const between = question === undefined ? above.slice(0, 3) : above.filter(({ row }) => row > question.row).slice(0, 3);
  const context = between.map(({ text }) => text).reverse();
  return question === undefined ? { ...menu, context } : { ...menu, question: question.text, context };
}

function trimEdges(line: string): string {
  return line.replace(new RegExp(`^[\\s${EDGE}]+|[\\s${EDGE}]+$`, 'gu'), '');
}

/** The first line with text of the box (rows that begin with the same edge) that holds `row`. */
function boxFirstLine(lines: readonly string[], row: number): { row: number; text: string } | undefined {
  const edge = new RegExp(`^\\s*([${EDGE}])`, 'u').exec(lines[row] ?? '')?.[1];
  if (edge === undefined) return undefined;
  let first: { row: number; text: string } | undefined;
  for (let up = row - 1; up >= 0 && new RegExp(`^\\s*${edge}`, 'u').test(lines[up] ?? ''); up--) {
    const text = trimEdges(lines[up] ?? '');
    if (/\p{L}/u.test(text)) first = { row: up, text };
  }
  return first;
}

/**
 * A row of buttons (opencode's permission dialog): two to six short labels apart by two
 * spaces or more, before any key hints, with a left/right hint on the row or just below.
 * The selected button is the one whose look differs from all the others' (it needs `style`).
 */
function buttonMenu(lines: readonly string[], style: ButtonStyle | undefined): ScreenMenu | undefined {
  for (let row = lines.length - 1; row >= 0; row--) {
    const line = lines[row] ?? '';
    const segments = [...line.matchAll(new RegExp(`[^\\s${EDGE}]+(?: [^\\s${EDGE}]+)*`, 'gu'))].map((match) => ({ text: match[0], start: match.index ?? 0 }));
    const buttons: typeof segments = [];
    for (const segment of segments) {
      if (KEY_HINT.test(segment.text)) break;
      buttons.push(segment);
    }
    if (buttons.length < 2 || buttons.length > MAX_BUTTONS || buttons.some((button) => [...button.text].length > MAX_BUTTON_CHARS)) continue;
    const hinted = lines.slice(row, row + BUTTON_HINT_ROWS + 1).some((candidate) => BUTTON_HINT.test(candidate));
    if (!hinted) continue;
    const options = buttons.map((button, index) => ({ key: String(index + 1), label: button.text }));
    return withQuestion({ kind: 'buttons', options, selected: selectedButton(buttons, row, style), context: [] }, lines, row);
  }
  return undefined;
}

/**
 * The button that looks unlike the row around the buttons (the middle of the gap between the
 * first two, away from any padding the buttons draw in their own colours), when exactly one does.
 */
function selectedButton(buttons: ReadonlyArray<{ text: string; start: number }>, row: number, style: ButtonStyle | undefined): number {
  const [first, second] = buttons;
  if (!style || !first || !second) return -1;
  const gapEnd = first.start + first.text.length;
  const plain = style(row, Math.floor((gapEnd + second.start) / 2));
  const differing = buttons.flatMap((button, index) => (style(row, button.start + Math.floor(button.text.length / 2)) === plain ? [] : [index]));
  return differing.length === 1 ? (differing[0] as number) : -1;
}

/**
 * The keys that pick `option` (its key) in `menu`: with a marker shown, the arrows from it and Enter
 * (every such menu takes them); without one, its number and Enter.
 */
export function keysFor(menu: ScreenMenu, option: string): string[] | undefined {
  const index = menu.options.findIndex((candidate) => candidate.key === option);
  if (index < 0) return undefined;
  if (menu.selected < 0) return menu.kind === 'numbered' ? [option, 'Enter'] : undefined;
  const moves = index - menu.selected;
  const [forward, back] = menu.kind === 'buttons' ? ['Right', 'Left'] : ['Down', 'Up'];
  return [...Array<string>(Math.abs(moves)).fill(moves > 0 ? forward : back), 'Enter'];
}
