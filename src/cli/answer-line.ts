/** A live view's answer to a blocked agent (`herdr inbox`, `herdr watch`): `approvals.answer`, and what came of it in one line. */
import type { HerdrClient } from '../client/client.js';

export async function answerLine(client: HerdrClient, approval: { paneId: string; questionHash: string; shown: string }, option: string): Promise<string> {
  try {
    const answered = await client.call('approvals.answer', { pane_id: approval.paneId, option, question_hash: approval.questionHash });
    return `${approval.shown}: answered ${option}. ${answered.label}`;
  } catch (error) {
    return `${approval.shown}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
