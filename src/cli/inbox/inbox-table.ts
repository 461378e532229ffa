/** `herdr inbox --once`: the approvals of every server as a table, or as JSON lines for scripts. */
import type { Approval } from '../../protocol/methods/approvals.js';
import { age } from '../watch/table.js';

export interface HostApproval {
  /** undefined: the local server. */
  host: string | undefined;
  approval: Approval;
}

/** An approval's pane as commands take it back: its stable id, with its host for a remote server (`buildbox/w1:p3`). */
export function approvalId(host: string | undefined, approval: Approval): string {
  return host ? `${host}/${approval.stable_id}` : approval.stable_id;
}

export function inboxTable(entries: readonly HostApproval[], now: number): string {
  const head = ['PANE', 'AGENT', 'WAITING', 'QUESTION', 'OPTIONS'];
  const rows = entries.map(({ host, approval }) => [
    approvalId(host, approval),
    [approval.name, approval.agent].filter(Boolean).join(' · '),
    age(now - approval.since),
    approval.question ?? '',
    approval.options.map((option) => `${option.key} ${option.label}`).join(' · ') || '(no menu)',
  ]);
  const widths = head.map((name, column) => Math.max(name.length, ...rows.map((row) => [...(row[column] ?? '')].length)));
  const text = (row: readonly string[]) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd();
  return [text(head), ...rows.map(text)].join('\n') + '\n';
}
