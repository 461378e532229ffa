/**
 * A blocked agent's menu, read off its screen: the question and the options
 * below it. Two kinds, from the real CLIs' screens (test/fixtures/screens):
 * - numbered, chosen by number or with the arrows: claude's `❯ 1. Yes` /
 *   `2. No`, gemini's `● 1. Trust folder`, copilot's, codex's `› 1. …`;
 * - arrow-selected, no numbers: cline's `❯ Cline Usage-Billing (OAuth)`
 *   above `ClinePass (OAuth)`, options at the same indentation.
 * The last menu on the screen wins (a menu is drawn below what it asks).
 * Pure: the server's shards (approvals), `herdr web`'s page and the tests run it.
 */
export interface MenuOption {
  /** Its number for a numbered menu; its position from 1 for an arrow-selected one. */
  key: string;
  label: string;
}

export interface ScreenMenu {
  kind: 'numbered' | 'arrows';
  options: MenuOption[];
  /** The option the marker is on (its index), or -1 when none shows one. */
  selected: number;
  /** The nearest question above the options (a line with `?`), when there is one. */
  question?: string;
  /** The last few lines of text above the options: with the labels, what tells this menu from another. */
  context: string[];
}

/** Box edges and markers that may stand before an option on its line. */
const EDGE = '│┃|║';
const MARKERS = '❯›▶▸●◉○◯*\\-';
const NUMBERED = new RegExp(`^[\\s${EDGE}]*([${MARKERS}>])?\\s*(\\d{1,2})[.)]\\s+(\\S.*?)[\\s${EDGE}]*$`, 'u');
/** An arrow menu's marked line: only markers a prompt line does not use (`>` is a prompt). */
const MARKED = new RegExp(`^([\\s${EDGE}]*)([❯›▶▸])\\s+(\\S.*?)[\\s${EDGE}]*$`, 'u');
const SELECTED_MARKERS = new Set(['❯', '›', '▶', '▸', '●', '◉', '>']);
const MAX_OPTIONS = 12;
/** How far above the first option a question is looked for. */
const QUESTION_ROWS = 8;

export function findMenu(lines: readonly string[]): ScreenMenu | undefined {
  return numberedMenu(lines) ?? arrowMenu(lines);
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

/** The question (the nearest line above that ends with `?`, else one with `?` in it) and the text above. */
function withQuestion(menu: ScreenMenu, lines: readonly string[], firstRow: number): ScreenMenu {
  const above: string[] = [];
  for (let row = firstRow - 1; row >= Math.max(0, firstRow - QUESTION_ROWS); row--) {
    const text = (lines[row] ?? '').replace(new RegExp(`^[\\s${EDGE}]+|[\\s${EDGE}]+$`, 'gu'), '');
    if (/\p{L}/u.test(text)) above.push(text);
  }
  const question = above.find((text) => text.endsWith('?')) ?? above.find((text) => text.includes('?'));
  const context = above.slice(0, 3).reverse();
  return question === undefined ? { ...menu, context } : { ...menu, question, context };
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
  return [...Array<string>(Math.abs(moves)).fill(moves > 0 ? 'Down' : 'Up'), 'Enter'];
}
