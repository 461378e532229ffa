/** `herdr inbox answer` and `answer-all` as a person reads them (docs/protocol.md §13.6). */
import type { MethodResults } from '../../protocol/methods.js';

/** `inbox answer`: `w1:p3: answered 1. Yes` (the pane as it was typed: the inbox lists stable ids). */
export const approvalAnswered = (result: MethodResults['approvals.answer'], pane: string): string => `${pane}: answered ${result.option}. ${result.label}\n`;

/** `inbox answer-all`: a line for each agent answered or skipped. */
export function approvalsAnswered({ answered, skipped }: MethodResults['approvals.answer_matching']): string {
  if (answered.length === 0 && skipped.length === 0) return 'no blocked agent matched\n';
  return [
    ...answered.map((entry) => `${entry.stable_id}: answered ${entry.option}. ${entry.label}`),
    ...skipped.map((entry) => `${entry.stable_id}: skipped, ${entry.message} (${entry.code})`),
  ].join('\n') + '\n';
}
