/** Small pieces of the text a person reads (docs/protocol.md §11): `key: value` lines, labels, counts. */
import { terminalWidth } from '../reader.js';
import { age, alignedTable, tilde } from '../table.js';

/** One thing a `key: value` block shows; absent (undefined, '' or false) values are left out. */
export type Field = readonly [key: string, value: string | undefined | false];

/** `key: value` lines, the values aligned after the longest key. */
export function fieldLines(fields: readonly Field[]): string {
  const shown = fields.filter((field): field is readonly [string, string] => typeof field[1] === 'string' && field[1] !== '');
  const width = Math.max(0, ...shown.map(([key]) => key.length + 1));
  return shown.map(([key, value]) => `${`${key}:`.padEnd(width)} ${value.replace(/\s*\n\s*/g, ' ')}`).join('\n') + '\n';
}

/** A label in quotes (`"api tests"`), or nothing. */
export const quoted = (label: string | undefined): string => (label === undefined || label === '' ? '' : ` "${label}"`);

/** `1 pane`, `3 panes`. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A directory as a person reads it (`~/src/app`). */
export const directory = (path: string | undefined): string => tilde(path, process.env.HOME ?? '');

/** How long since `ms` (ms since the epoch). */
export const since = (ms: number): string => age(Date.now() - ms);

/** A duration in seconds with one decimal (`4.2 s`). */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The first line of a text, cut to `max` characters. */
export function firstLine(text: string, max = 60): string {
  const line = text.split('\n')[0] ?? '';
  const chars = [...line];
  return chars.length <= max && !text.includes('\n') ? line : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A list whose focused row is marked `*` in a first column of its own, as a person
 * knows it from other tools; no such column when nothing listed is focused.
 */
export function markedTable(head: readonly string[], rows: ReadonlyArray<{ focused: boolean; cells: readonly string[] }>): string {
  const marked = rows.some((row) => row.focused);
  return alignedTable(
    marked ? ['', ...head] : head,
    rows.map((row) => (marked ? [row.focused ? '*' : '', ...row.cells] : row.cells)),
    terminalWidth(),
  );
}
