/**
 * Param fragments several methods share (docs/protocol.md §5), and the shape of
 * one method-table entry. The table itself is `METHODS` in methods.ts, which
 * spreads in each area's entries from methods/<area>.ts.
 */
import { z } from 'zod';
import { optional } from './optional.js';

export interface MethodEntry {
  params: z.ZodType;
  result: z.ZodType;
  changesState: boolean;
}

export const workspaceId = z.string();
export const paneId = z.string();
export const dimension = z.number().int().min(1).max(1000);
export const keys = z.array(z.string());

/** Text that reaches exec(2) or the environment, where a NUL byte would silently cut it short. */
export const execText = z.string().refine((text) => !text.includes('\0'), 'must not contain a NUL byte');
/** Environment additions. A name must split `NAME=value` where the client meant: `A=B` would set A, and could shadow HERDR_*. */
export const environment = z.record(z.string(), execText).superRefine((env, context) => {
  for (const name of Object.keys(env)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      context.addIssue({ code: 'custom', path: [name], message: 'an environment name must be non-empty, without "=" or NUL' });
    }
  }
});

/** A label is shown in lists and kept in retained events (workspace_created): bounded, like every text the server keeps. */
export const MAX_LABEL_CHARS = 1024;
export const label = z.string().max(MAX_LABEL_CHARS);

/** Extra params of `workspace.create` and `pane.split` (docs/protocol.md §5). */
export const spawnOptions = {
  label: optional(label),
  command: optional(z.array(execText).min(1, 'command needs at least the program')),
  env: optional(environment),
  cols: optional(dimension),
  rows: optional(dimension),
};

export const timeoutMs = optional(z.number().int().min(0));
export const empty = z.object({});
export const ok = z.object({ type: z.literal('ok') });

/**
 * A hook's sequence number (docs/protocol.md §10.5): a non-negative integer up to 2^64-1, compared exactly.
 * Hooks send nanosecond clocks (~1.8e18, past 2^53): the router parses such lines losslessly, so large
 * values arrive as bigint. Also the seq of metadata reports (methods/pane-details.ts).
 */
export const hookSeq = optional(
  z
    .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.bigint().min(0n).max(2n ** 64n - 1n)])
    .transform((value) => BigInt(value))
    .describe('a non-negative integer below 2^64, compared exactly'),
);
