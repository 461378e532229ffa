/**
 * Corpus (b): output shaped like coding agents' TUIs, at 120 × 40.
 *
 * - Ink (claude, gemini, copilot): each update, inside synchronized output
 *   (mode 2026), erases the previous live frame line by line (erase line,
 *   cursor up), prints any finished block above it (tool calls, diffs on
 *   truecolour backgrounds, answers with CJK and emoji) and draws the new
 *   frame: a spinner line, thinking text, a rounded input box, a footer.
 * - ratatui inline viewport (codex): history lines inserted above a
 *   10-row viewport through a scroll region, and partial updates of the
 *   viewport's cells at absolute positions.
 * - a full-screen app on the alternate screen (opencode): a painted screen
 *   with 256-colour backgrounds, then cell updates.
 */
import { CSI, RESET, SYNC_BEGIN, SYNC_END, bg256, bgRgb, fg256, fgRgb, fit, moveTo } from './cells.js';
import type { Prng } from './prng.js';
import { EMOJI, cjkPhrase, filePath, identifier, words } from './vocabulary.js';

const COLUMNS = 120;
const ROWS = 40;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏', '✻', '✶', '✳', '✢', '·'];
const VERBS = ['Thinking', 'Reading', 'Editing', 'Planning', 'Searching', 'Compiling', 'Testing', 'Reviewing', 'Refactoring', 'Writing'];

/** Collects output and counts its UTF-8 bytes. */
class Output {
  private readonly parts: string[] = [];
  bytes = 0;

  push(text: string): void {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text);
  }

  text(): string {
    return this.parts.join('');
  }
}

/** Prose with now and then a CJK phrase, an emoji or an identifier in colour. */
function richSentence(prng: Prng, wordCount: number): string {
  const parts: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const roll = prng.below(100);
    if (roll < 6) parts.push(cjkPhrase(prng, prng.between(2, 8)));
    else if (roll < 9) parts.push(prng.pick(EMOJI));
    else if (roll < 14) parts.push(`${fgRgb(prng.between(120, 255), prng.between(80, 200), prng.between(60, 255))}${identifier(prng)}${RESET}`);
    else parts.push(prng.pick(words(prng, 1).split(' ')));
  }
  return parts.join(' ');
}

/** A finished block Ink prints above its live frame: a tool call, a diff or an answer paragraph. */
function inkBlock(prng: Prng): string[] {
  const dot = `${fgRgb(prng.between(0, 120), prng.between(150, 255), prng.between(0, 160))}⏺${RESET}`;
  const kind = prng.below(3);
  if (kind === 0) {
    const tool = prng.pick(['Read', 'Edit', 'Bash', 'Grep', 'Write']);
    return [`${dot} ${CSI}1m${tool}${RESET}(${filePath(prng)})`, `  ⎿  ${words(prng, prng.between(2, 6))} ${prng.between(1, 900)} lines ${CSI}2m(ctrl+r to expand)${RESET}`, ''];
  }
  if (kind === 1) {
    const lines = [`${dot} ${CSI}1mUpdate${RESET}(${filePath(prng)})`];
    let line = prng.between(1, 800);
    for (let i = prng.between(3, 9); i > 0; i--, line++) {
      const sign = prng.pick([' ', '+', '-']);
      const background = sign === '+' ? bgRgb(22, 68, 32) : sign === '-' ? bgRgb(82, 24, 28) : '';
      const code = `${identifier(prng)}(${identifier(prng)}, ${prng.below(1000)});`;
      lines.push(`  ${fg256(244)}${String(line).padStart(5)}${RESET} ${background}${sign} ${fit(`${'  '.repeat(prng.below(4))}${code}`, 100)}${RESET}`);
    }
    lines.push('');
    return lines;
  }
  const lines = [`${dot} ${richSentence(prng, prng.between(6, 14))}`];
  for (let i = prng.between(0, 3); i > 0; i--) lines.push(`  ${richSentence(prng, prng.between(8, 14))}`);
  lines.push('');
  return lines;
}

function inkSession(prng: Prng, out: Output, endAt: number): void {
  let previousHeight = 0;
  let typed = '';
  let tokens = prng.between(100, 5000);
  const verb = prng.pick(VERBS);
  const boxColour = fg256(prng.pick([244, 39, 205, 114]));
  const frames = prng.between(20, 80);
  const thinking: string[] = [];
  for (let frame = 0; frame < frames && out.bytes < endAt; frame++) {
    let update = SYNC_BEGIN;
    for (let i = 0; i < previousHeight; i++) update += `${CSI}2K${i < previousHeight - 1 ? `${CSI}1A` : ''}`;
    if (previousHeight > 0) update += `${CSI}G`;
    if (prng.chance(15)) update += `${inkBlock(prng).join('\n')}\n`;
    if (prng.chance(40)) typed += prng.chance(10) ? cjkPhrase(prng, 1) : prng.pick(words(prng, 1).split('')) + (prng.chance(20) ? ' ' : '');
    if (typed.length > 90) typed = '';
    if (prng.chance(30)) thinking.push(`${CSI}2m${CSI}3m${words(prng, prng.between(6, 16))}${RESET}`);
    if (thinking.length > 4 || prng.chance(5)) thinking.splice(0, thinking.length);
    tokens += prng.between(1, 60);
    const glyph = `${fgRgb(prng.between(200, 255), prng.between(100, 180), prng.between(40, 120))}${SPINNER[frame % SPINNER.length]}${RESET}`;
    const lines = [
      `${glyph} ${verb}… ${CSI}2m(${Math.floor(frame / 4)}s · ↑ ${(tokens / 1000).toFixed(1)}k tokens · esc to interrupt)${RESET}`,
      ...thinking,
      '',
      `${boxColour}╭${'─'.repeat(COLUMNS - 2)}╮${RESET}`,
      `${boxColour}│${RESET} > ${fit(typed, COLUMNS - 5)}${boxColour}│${RESET}`,
      `${boxColour}╰${'─'.repeat(COLUMNS - 2)}╯${RESET}`,
      `  ${CSI}2m? for shortcuts${RESET}${' '.repeat(60)}${fg256(prng.pick([135, 208, 78]))}⏵⏵ auto-accept edits on${RESET}`,
    ];
    update += lines.join('\n') + SYNC_END;
    previousHeight = lines.length;
    out.push(update);
  }
  out.push('\n');
}

/** Codex-style inline viewport: the bottom VIEWPORT rows are the live area, history scrolls above it. */
const VIEWPORT = 10;

function ratatuiSession(prng: Prng, out: Output, endAt: number): void {
  const top = ROWS - VIEWPORT + 1;
  let paint = `${SYNC_BEGIN}${CSI}?25l`;
  for (let row = top; row <= ROWS; row++) paint += `${moveTo(row, 1)}${CSI}2K`;
  paint += `${moveTo(top, 1)}${fg256(240)}${'─'.repeat(COLUMNS)}${RESET}${moveTo(top + 2, 3)}${CSI}1m›${RESET} ${fg256(245)}Ask Codex to do anything${RESET}`;
  paint += `${moveTo(ROWS, 3)}${fg256(242)}⏎ send   ⇧⏎ newline   ⌃T transcript   ⌃C quit${RESET}${SYNC_END}`;
  out.push(paint);
  const frames = prng.between(30, 120);
  let elapsed = 0;
  for (let frame = 0; frame < frames && out.bytes < endAt; frame++) {
    let update = SYNC_BEGIN;
    if (prng.chance(20)) {
      // Insert history above the viewport: scroll the region, write at its bottom row.
      update += `${CSI}1;${top - 1}r${moveTo(top - 1, 1)}`;
      for (let i = prng.between(1, 6); i > 0; i--) {
        const bullet = prng.chance(30) ? `${fgRgb(prng.between(80, 200), 160, 255)}•${RESET} ` : '  ';
        update += `\r\n${bullet}${richSentence(prng, prng.between(5, 16))}`;
      }
      update += `${CSI}r`;
    }
    elapsed += prng.between(0, 2);
    const spinner = SPINNER[frame % 10];
    update += `${moveTo(top + 1, 3)}${fgRgb(prng.between(150, 255), prng.between(150, 255), 80)}${spinner}${RESET} ${CSI}1m${prng.pick(VERBS)}${RESET}${CSI}K`;
    update += `${moveTo(top + 1, 40)}${fg256(245)}(${elapsed}s • esc to interrupt)${RESET}`;
    if (prng.chance(50)) update += `${moveTo(top + 4 + prng.below(3), 3)}${fg256(prng.below(256))}${fit(richSentence(prng, prng.between(3, 10)), 110)}${RESET}`;
    if (prng.chance(25)) update += `${moveTo(ROWS - 1, COLUMNS - 24)}${fg256(244)}${fit(`${prng.between(1, 99)}% context left`, 20)}${RESET}`;
    update += `${moveTo(top + 2, 5)}${SYNC_END}`;
    out.push(update);
  }
  out.push(`${CSI}?25h${moveTo(ROWS, 1)}\r\n`);
}

function fullScreenSession(prng: Prng, out: Output, endAt: number): void {
  const panel = prng.pick([235, 236, 234]);
  let paint = `${CSI}?1049h${CSI}?25l${CSI}H${CSI}2J`;
  for (let row = 1; row <= ROWS; row++) {
    const side = row === 1 ? `${CSI}1m ${identifier(prng)} ${RESET}${bg256(panel)}` : ` ${fit(filePath(prng), 26)}`;
    paint += `${moveTo(row, 1)}${bg256(panel)}${fg256(250)}${fit(side, 30)}${RESET}${fg256(240)}│${RESET} ${fit(row % 3 === 0 ? richSentence(prng, 10) : words(prng, prng.between(4, 14)), COLUMNS - 33)}`;
  }
  out.push(paint);
  const frames = prng.between(20, 60);
  for (let frame = 0; frame < frames && out.bytes < endAt; frame++) {
    let update = SYNC_BEGIN;
    for (let i = prng.between(1, 5); i > 0; i--) {
      update += `${moveTo(prng.between(2, ROWS - 1), 33)}${fg256(prng.below(256))}${fit(richSentence(prng, prng.between(4, 12)), COLUMNS - 33)}${RESET}`;
    }
    update += `${moveTo(ROWS, 1)}${bg256(24)}${fg256(231)}${fit(` ${SPINNER[frame % 10]} ${prng.pick(VERBS)} · ${prng.between(1, 400)} tokens/s `, COLUMNS)}${RESET}${SYNC_END}`;
    out.push(update);
  }
  out.push(`${CSI}?1049l${CSI}?25h`);
}

export function agentTui(prng: Prng, bytes: number): string {
  const out = new Output();
  while (out.bytes < bytes) {
    const roll = prng.below(100);
    if (roll < 50) inkSession(prng, out, bytes);
    else if (roll < 85) ratatuiSession(prng, out, bytes);
    else fullScreenSession(prng, out, bytes);
  }
  return out.text();
}
