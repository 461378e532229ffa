/** `herdr inbox --once`: the approvals of every server as a table, or as JSON lines for scripts. */
import type { Approval } from '../../protocol/methods/approvals.js';
import { age, alignedTable } from '../table.js';
import { optionsText } from '../watch/table.js';

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
  return alignedTable(
    ['PANE', 'AGENT', 'WAITING', 'QUESTION', 'OPTIONS'],
    entries.map(({ host, approval }) => [
      approvalId(host, approval),
      [approval.name, approval.agent].filter(Boolean).join(' · '),
      age(now - approval.since),
      approval.question ?? '',
      optionsText(approval.options) || '(no menu)',
    ]),
  );
}
