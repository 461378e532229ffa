/** The fleet as table rows: cells as text, fitted to a width, coloured for a terminal or plain for scripts. */
import type { AgentState } from '../../protocol/objects.js';
import type { FleetRow } from '../../client/fleet/fleet-model.js';
import { age, alignedTable, fit, tilde } from '../table.js';

export const COLUMNS = ['PANE', 'WORKSPACE', 'AGENT', 'STATE', 'FOR', 'QUEUE', 'EXIT', 'DIRECTORY', 'MESSAGE'] as const;
/** Most a column takes on a terminal (the last one takes what is left). */
const MAX_WIDTH: Record<string, number> = { HOST: 16, PANE: 24, WORKSPACE: 18, AGENT: 12, STATE: 7, FOR: 6, QUEUE: 5, EXIT: 4, DIRECTORY: 40 };

/** The columns shown: with a HOST column first when several servers are shown together. */
export function header(hosts: boolean): string[] {
  return hosts ? ['HOST', ...COLUMNS] : [...COLUMNS];
}

/** A row's cells under `header(hosts)`: with hosts, the host first and remote ids qualified. */
export function rowCells(row: FleetRow, now: number, home: string, hosts: boolean): string[] {
  return hosts ? [row.host ?? 'local', ...cells(row, now, home, true)] : cells(row, now, home);
}

/** The STATE column: an agent's state, or for a pane without an agent whether it prints. */
type ShownState = AgentState | 'active' | 'quiet';
const STATE_COLOUR: Record<ShownState, string> = {
  blocked: '\x1b[1;31m',
  working: '\x1b[33m',
  idle: '\x1b[32m',
  unknown: '\x1b[2m',
  active: '\x1b[36m',
  quiet: '\x1b[2m',
};
const RESET = '\x1b[0m';

/**
 * A row's pane id as a person reads it and commands take it back: the stable id, which does
 * not move when another pane closes, qualified by its host when hosts are mixed (`buildbox/w1:p2`).
 */
export function shownId(row: FleetRow, qualify: boolean): string {
  return qualify && row.host ? `${row.host}/${row.stableId}` : row.stableId;
}

/** A row's workspace as a person reads it: its stable id (`w2`, the start of the pane's), with its label. */
function shownWorkspace(row: FleetRow): string {
  const id = row.stableId.slice(0, row.stableId.indexOf(':'));
  return row.workspaceLabel === '' ? id : `${id} ${row.workspaceLabel}`;
}

/** One row's cells, in COLUMNS order. */
export function cells(row: FleetRow, now: number, home: string, qualify = false): string[] {
  return [
    shownId(row, qualify),
    shownWorkspace(row),
    row.agent ?? '-',
    ...stateAndAge(row, now),
    row.queued === 0 ? '-' : String(row.queued),
    row.lastExitCode === undefined ? '-' : String(row.lastExitCode),
    tilde(row.cwd, home),
    messageOf(row).replace(/\s+/g, ' '),
  ];
}

/**
 * The STATE and FOR cells: an agent's state and how long it has held; a pane without an
 * agent (a shell, a program no detector knows) has no state to show, so whether it prints:
 * `active` and for how long, or `quiet` and how long since it last printed.
 */
function stateAndAge(row: FleetRow, now: number): [string, string] {
  if (row.agent !== undefined) return [row.state, age(now - row.since)];
  const { active, activeSince, lastAt } = row.output;
  if (active) return ['active', age(now - (activeSince ?? now))];
  return ['quiet', lastAt === undefined ? '-' : age(now - lastAt)];
}

/** A menu's options on one line: `1 Yes · 2 No`. */
export function optionsText(options: ReadonlyArray<{ key: string; label: string }>): string {
  return options.map((option) => `${option.key} ${option.label}`).join(' · ');
}

/** A blocked agent's question with its menu's options (a digit answers in `herdr watch`), else its message. */
function messageOf(row: FleetRow): string {
  const approval = row.approval;
  if (!approval) return row.message ?? '';
  const options = optionsText(approval.options);
  return `${approval.question ?? row.message ?? ''}${options === '' ? '' : ` [${options}]`}`;
}

/** Column widths for these rows on a terminal `cols` wide: each as wide as its content, capped, the last filling the rest. */
export function widths(table: string[][], cols: number, head: readonly string[]): number[] {
  const result = head.map((name, i) => Math.min(MAX_WIDTH[name] ?? 0, Math.max(name.length, ...table.map((r) => [...(r[i] ?? '')].length))));
  const used = result.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  result[result.length - 1] = Math.max(0, cols - used);
  return result;
}

/** A row as one line of a terminal: fitted cells, the state (in column `stateColumn`) coloured. */
export function line(row: readonly string[], columnWidths: number[], stateColumn: number | undefined): string {
  return row
    .map((cell, i) => {
      const text = fit(cell, columnWidths[i] ?? 0);
      const state = cell as ShownState;
      return i === stateColumn && STATE_COLOUR[state] ? `${STATE_COLOUR[state]}${text}${RESET}` : text;
    })
    .join('  ')
    .trimEnd();
}

/**
 * The whole table as plain text (`herdr watch --once`, `herdr fleet list`):
 * every cell whole, columns aligned; with `hosts`, a HOST column first and
 * remote ids qualified.
 */
export function plainTable(rows: FleetRow[], now: number, home: string, hosts = false): string {
  return alignedTable(header(hosts), rows.map((row) => rowCells(row, now, home, hosts)));
}
