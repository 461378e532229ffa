/**
 * Text for a person at a terminal, shared by every command that prints a table
 * (`herdr watch --once`, `rules list`, `inbox --once`, `pane list`, …): aligned columns,
 * cells cut to a width, durations and directories as a person reads them.
 */

/** How long ago, in the largest units that matter: 42s, 12m, 3h05m, 2d04h. */
export function age(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d${String(hours % 24).padStart(2, '0')}h`;
}

/** A directory under `home` written from `~`. */
export function tilde(path: string | undefined, home: string): string {
  if (path === undefined) return '';
  if (home !== '' && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

/** `text` padded or cut (with `…`) to exactly `width` characters. */
export function fit(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text + ' '.repeat(width - chars.length);
  return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** A line cut (with `…`) to `width` characters; undefined: whole. */
export function cut(line: string, width: number | undefined): string {
  if (width === undefined) return line;
  const chars = [...line];
  return chars.length <= width ? line : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * A table as plain text: each column as wide as its widest cell, two spaces apart, the
 * last as it is; with `width` (a terminal's columns) every line cut to it.
 */
export function alignedTable(head: readonly string[], table: ReadonlyArray<readonly string[]>, width?: number): string {
  const columnWidths = head.map((name, i) => Math.max(name.length, ...table.map((r) => [...(r[i] ?? '')].length)));
  const text = (cellsOfRow: readonly string[]) =>
    cut(cellsOfRow.map((cell, i) => (i === cellsOfRow.length - 1 ? cell : fit(cell, columnWidths[i] ?? 0))).join('  ').trimEnd(), width);
  return [text(head), ...table.map(text)].join('\n') + '\n';
}
