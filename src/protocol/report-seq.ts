/**
 * The seq rule of reports from outside (docs/protocol.md §10.5, §5.1): once a source sent a
 * seq, each later report of it must carry a larger one, or it is dropped. Hook reports
 * (in the shards) and metadata reports (on main) follow the same rule; no zod here, so
 * the shards load nothing for it.
 */
export function seqAdmits(last: bigint | undefined, seq: bigint | undefined): boolean {
  return last === undefined || (seq !== undefined && seq > last);
}
