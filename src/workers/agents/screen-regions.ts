/**
 * The parts of a screen a manifest rule may look at (herdr's `region`, docs/protocol.md §10.8):
 * pure functions over the screen's lines. The screen's empty rows below its last text are not
 * part of any region, as they are not part of herdr's recent text.
 */
import type { Region } from '../../protocol/agent-manifest.js';

const isBlank = (line: string) => line.trim() === '';

/** A prompt line of codex's kind: `›` alone or followed by a space. */
const isPromptLine = (line: string) => line === '›' || line.startsWith('› ');
/** A block of output in codex's transcript starts with one of these. */
const isBlockMarker = (line: string) => /^[•■✗✓]/u.test(line);

/** A horizontal rule: a run of `─`, alone, or of three or more with a caption after it. */
export function isHorizontalRule(line: string): boolean {
  const text = line.trim();
  let run = 0;
  for (const char of text) {
    if (char !== '─') break;
    run++;
  }
  if (run === 0) return false;
  return run >= 3 || text.slice(run).trim() === '';
}

function lastIndex(lines: readonly string[], test: (line: string) => boolean, before = lines.length): number {
  for (let i = Math.min(before, lines.length) - 1; i >= 0; i--) if (test(lines[i] ?? '')) return i;
  return -1;
}

/** The prompt line still being typed at: the last one, unless output blocks came after it. */
function currentPrompt(lines: readonly string[]): number {
  const prompt = lastIndex(lines, isPromptLine);
  if (prompt < 0) return -1;
  return lines.slice(prompt + 1).some(isBlockMarker) ? -1 : prompt;
}

/** The top edge of the input box: the second rule line from the bottom. */
function promptBoxTop(lines: readonly string[]): number {
  const bottom = lastIndex(lines, isHorizontalRule);
  return bottom < 0 ? -1 : lastIndex(lines, isHorizontalRule, bottom);
}

function regionLines(region: Region, lines: readonly string[]): readonly string[] {
  switch (region.kind) {
    case 'whole_recent':
    case 'osc_title':
    case 'osc_progress':
      return lines;
    case 'bottom_lines':
      return region.count === 0 ? [] : lines.slice(Math.max(0, lines.length - region.count));
    case 'bottom_non_empty_lines': {
      let start = -1;
      let seen = 0;
      for (let i = lines.length - 1; i >= 0 && seen < region.count; i--) {
        if (!isBlank(lines[i] ?? '')) {
          start = i;
          seen++;
        }
      }
      return start < 0 ? [] : lines.slice(start);
    }
    case 'top_non_empty_lines': {
      let end = -1;
      let seen = 0;
      for (let i = 0; i < lines.length && seen < region.count; i++) {
        if (!isBlank(lines[i] ?? '')) {
          end = i;
          seen++;
        }
      }
      return end < 0 ? [] : lines.slice(0, end + 1);
    }
    case 'after_last_prompt_marker': {
      const prompt = lastIndex(lines, isPromptLine);
      return prompt < 0 ? lines : lines.slice(prompt + 1);
    }
    case 'before_current_prompt_marker': {
      const prompt = currentPrompt(lines);
      return prompt < 0 ? lines : lines.slice(0, prompt);
    }
    case 'whole_recent_without_current_prompt_marker':
      return currentPrompt(lines) < 0 ? lines : [];
    case 'current_prompt_block_marker':
    case 'after_current_prompt_block_marker': {
      const prompt = currentPrompt(lines);
      const block = prompt < 0 ? -1 : lastIndex(lines, isBlockMarker, prompt);
      if (block < 0) return [];
      return region.kind === 'current_prompt_block_marker' ? [lines[block] ?? ''] : lines.slice(block);
    }
    case 'prompt_box_body': {
      const top = promptBoxTop(lines);
      if (top < 0) return [];
      const next = lines.slice(top + 1).findIndex(isHorizontalRule);
      return lines.slice(top + 1, next < 0 ? lines.length : top + 1 + next);
    }
    case 'above_prompt_box':
    case 'last_non_empty_above_prompt_box': {
      const top = promptBoxTop(lines);
      const above = top < 0 ? lines : lines.slice(0, top);
      if (region.kind === 'above_prompt_box') return above;
      const last = lastIndex(above, (line) => !isBlank(line));
      return last < 0 ? [] : [above[last] ?? ''];
    }
    case 'after_last_horizontal_rule': {
      const rule = lastIndex(lines, isHorizontalRule);
      return rule < 0 ? lines : lines.slice(rule + 1);
    }
  }
}

/** The text of `region` on a screen (`text`, its rows joined by newlines) whose program set `title`. */
export function regionText(region: Region, text: string, title: string): string {
  if (region.kind === 'osc_title') return title;
  // Not kept by this server: a rule on it sees nothing (docs/protocol.md §10.8).
  if (region.kind === 'osc_progress') return '';
  const lines = text.split('\n');
  let end = lines.length;
  while (end > 0 && isBlank(lines[end - 1] ?? '')) end--;
  return regionLines(region, lines.slice(0, end)).join('\n');
}
