/** Method-table entries for pane process info, labels and reported metadata; spread into `METHODS` (methods.ts). */
import { z } from 'zod';
import { AGENT_STATUSES } from '../enums.js';
import { paneInfoSchema } from '../objects.js';
import { optional } from '../optional.js';
import { type MethodEntry, hookSeq, label, ok, paneId, workspaceId } from '../params.js';

/** The limits of reported metadata (docs/protocol.md §5, herdr's own). */
export const METADATA_LIMITS = {
  /** Names a report may give a token. */
  tokenName: /^[A-Za-z0-9_-]{1,32}$/,
  /** Who reports: the seq of each source is its own. */
  source: /^[A-Za-z0-9:._-]{1,80}$/,
  tokensPerReport: 16,
  /** What one pane (or workspace) holds, over all its sources. */
  tokensPerTarget: 32,
  /** Sources one pane (or workspace) keeps; one with nothing left to show makes room for a new one. */
  sourcesPerTarget: 16,
  /** Every reported text is trimmed, stripped of control characters and cut to this many characters. */
  textChars: 80,
  maxTtlMs: 86_400_000,
} as const;

const source = z.string().regex(METADATA_LIMITS.source, 'a source is 1-80 characters of A-Z a-z 0-9 : . _ -');
const tokenName = z.string().regex(METADATA_LIMITS.tokenName, 'a token name is 1-32 characters of A-Z a-z 0-9 _ -');
/** A token's new value; null (or text that is empty once trimmed) removes it. */
const tokens = z
  .record(tokenName, z.string().nullable())
  .refine((map) => Object.keys(map).length <= METADATA_LIMITS.tokensPerReport, `at most ${METADATA_LIMITS.tokensPerReport} tokens a report`);
const ttlMs = optional(z.number().int().min(1).max(METADATA_LIMITS.maxTtlMs).describe('the reported values vanish this long after the report'));

export const processDetailsSchema = z.object({
  pid: z.number().int(),
  name: z.string().describe('the kernel\'s command name (at most 15 bytes)'),
  argv0: z.string().optional(),
  argv: z.array(z.string()).optional(),
  cwd: z.string().optional(),
});

export const processInfoSchema = z.object({
  pane_id: z.string(),
  stable_id: z.string().describe('EXT: the pane\'s stable id'),
  shell_pid: z.number().int().describe('the pane\'s own process: its shell, or the command it was started with'),
  shell_argv: z.array(z.string()).optional().describe('EXT: that process\'s argv'),
  foreground_process_group_id: z.number().int().optional().describe('the foreground process group of the pane\'s terminal'),
  tty: z.string().optional(),
  foreground_processes: z.array(processDetailsSchema).describe('every process of the foreground group, by pid'),
});
export type ProcessInfo = z.output<typeof processInfoSchema>;

export const PANE_DETAIL_METHODS = {
  'pane.process_info': {
    params: z.object({ pane_id: optional(paneId) }),
    result: z.object({ type: z.literal('pane_process_info'), process_info: processInfoSchema }),
    changesState: false,
  },
  'pane.rename': {
    params: z.object({ pane_id: paneId, label: optional(label) }),
    result: z.object({ type: z.literal('pane_info'), pane: paneInfoSchema }),
    changesState: true,
  },
  'pane.report_metadata': {
    params: z.object({
      pane_id: paneId,
      source,
      tokens: optional(tokens),
      title: optional(z.string()),
      display_agent: optional(z.string()),
      state_labels: optional(z.partialRecord(z.enum(AGENT_STATUSES), z.string().nullable())),
      clear_title: optional(z.boolean()),
      clear_display_agent: optional(z.boolean()),
      clear_state_labels: optional(z.boolean()),
      seq: hookSeq,
      ttl_ms: ttlMs,
    }),
    result: ok,
    // Reports are live (TTL'd) and not kept with the session.
    changesState: false,
  },
  'workspace.report_metadata': {
    params: z.object({ workspace_id: workspaceId, source, tokens, seq: hookSeq, ttl_ms: ttlMs }),
    result: ok,
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
