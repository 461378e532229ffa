/**
 * The numbered choices of a blocked agent's menu, read off its screen:
 * claude's `❯ 1. Yes` / `2. Yes, and don't ask again` / `3. No`, gemini's
 * `● 1. Allow once`, codex's `› 1. Yes, proceed`. The last run of lines
 * numbered 1, 2, 3… wins (a menu is drawn below the question); the number is
 * the key that picks it. Pure: the page runs it on its terminal's lines.
 */
export interface MenuOption {
  /** The key that picks it: its number. */
  key: string;
  label: string;
}

/** A marker or box edge before the number: `❯`, `›`, `>`, `●`, `○`, `│`, `*`, `-`. */
const OPTION_LINE = /^[\s│┃|❯›>▶▸●○◯◉*\-]*?(\d{1,2})[.)]\s+(\S.*?)[\s│┃|]*$/u;
const MAX_OPTIONS = 9;

export function menuOptions(lines: readonly string[]): MenuOption[] {
  let best: MenuOption[] = [];
  let run: MenuOption[] = [];
  for (const line of lines) {
    const match = OPTION_LINE.exec(line);
    if (!match) continue;
    const number = Number(match[1]);
    const label = (match[2] ?? '').trim();
    if (number === 1) run = [{ key: '1', label }];
    else if (number === run.length + 1) run.push({ key: String(number), label });
    else continue;
    if (run.length >= 2 && run.length <= MAX_OPTIONS) best = [...run];
  }
  return best;
}
