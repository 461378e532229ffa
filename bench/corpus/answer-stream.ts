/**
 * Corpus (c): an agent's streamed answer as it reaches a plain terminal:
 * markdown paragraphs that run past the row and wrap, in English mixed with
 * Chinese, Japanese and Korean, Latin words with combining marks, emoji,
 * bold and inline code in colour, bullet lists and coloured code blocks.
 */
import { CSI, RESET, fg256, fgRgb } from './cells.js';
import type { Prng } from './prng.js';
import { EMOJI, cjkPhrase, combiningWord, filePath, hangulPhrase, identifier, words } from './vocabulary.js';

function inline(prng: Prng): string {
  const roll = prng.below(100);
  if (roll < 10) return cjkPhrase(prng, prng.between(3, 16));
  if (roll < 14) return hangulPhrase(prng, prng.between(2, 6));
  if (roll < 22) return combiningWord(prng);
  if (roll < 25) return prng.pick(EMOJI);
  if (roll < 31) return `${fg256(prng.pick([81, 114, 180, 215]))}${identifier(prng)}${RESET}`;
  if (roll < 35) return `${CSI}1m${words(prng, prng.between(1, 3))}${CSI}22m`;
  return words(prng, 1);
}

function paragraph(prng: Prng, fewest = 20, most = 140): string {
  const parts: string[] = [];
  for (let i = prng.between(fewest, most); i > 0; i--) parts.push(inline(prng));
  return `${parts.join(' ')}.`;
}

function codeBlock(prng: Prng): string {
  const lines = [`${fg256(242)}\`\`\`${prng.pick(['ts', 'rust', 'python', 'go'])}${RESET}`];
  for (let i = prng.between(3, 14); i > 0; i--) {
    const keyword = `${fgRgb(198, 120, 221)}${prng.pick(['const', 'let', 'fn', 'def', 'return', 'if', 'for'])}${RESET}`;
    const text = `${fgRgb(152, 195, 121)}'${words(prng, prng.between(1, 4))}'${RESET}`;
    lines.push(`${'  '.repeat(prng.below(4))}${keyword} ${fgRgb(97, 175, 239)}${identifier(prng)}${RESET} = ${text}; ${fg256(245)}// ${words(prng, prng.between(2, 8))}${RESET}`);
  }
  lines.push(`${fg256(242)}\`\`\`${RESET}`);
  return lines.join('\n');
}

export function answerStream(prng: Prng, bytes: number): string {
  const blocks: string[] = [];
  for (let size = 0; size < bytes; ) {
    const roll = prng.below(100);
    let block: string;
    if (roll < 8) block = `${CSI}1m${'#'.repeat(prng.between(1, 3))} ${words(prng, prng.between(2, 6))} ${cjkPhrase(prng, prng.between(2, 6))}${RESET}`;
    else if (roll < 30) block = Array.from({ length: prng.between(2, 6) }, () => `- ${paragraph(prng, 5, 50)}`).join('\n');
    else if (roll < 42) block = codeBlock(prng);
    else if (roll < 46) block = `${fg256(244)}${filePath(prng)}:${prng.between(1, 900)}${RESET}`;
    else block = paragraph(prng);
    blocks.push(block);
    size += Buffer.byteLength(block) + 2;
  }
  return `${blocks.join('\n\n')}\n`;
}
