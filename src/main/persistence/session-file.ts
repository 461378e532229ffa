/**
 * The session file: msgpackr-encoded, versioned, validated on the way in,
 * written atomically (a temporary file, fsync, rename, fsync of the
 * directory), so a server killed at any moment leaves the last complete one.
 * A file that cannot be read (truncated, corrupt, from a newer herdr) is moved
 * aside as `<name>.bad-<time>`, never deleted and never fatal.
 */
import { existsSync, renameSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Options, Packr } from 'msgpackr';
import { z } from 'zod';
import type { LayoutNode } from '../layout.js';
import { SPLIT_DIRECTIONS } from '../../protocol/enums.js';
import { ruleSpecSchema } from '../../protocol/rules.js';

/** Bumped when a field changes meaning; a newer file is set aside, not misread. */
export const SESSION_VERSION = 1;
const FORMAT = 'herdr-session';

/**
 * Fields that are undefined are left out (msgpack has no "absent"), so the file holds only
 * what is there: msgpackr's `skipValues`, which its typings lack. (A copy of the session
 * without them, made before packing, was 5% of main's time in a flood: ARCHITECTURE.md, "Sessions on disk".)
 */
const packOptions: Options & { skipValues: readonly unknown[] } = { useRecords: false, skipValues: [undefined] };
const packr = new Packr(packOptions);

const uid = z.number().int().min(1);
const count = z.number().int().min(0);
const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');

const layoutSchema: z.ZodType<LayoutNode> = z.lazy(() =>
  z.union([
    z.object({ kind: z.literal('leaf'), paneUid: uid }),
    z.object({ kind: z.literal('split'), direction: z.enum(SPLIT_DIRECTIONS), ratio: z.number(), first: layoutSchema, second: layoutSchema }),
  ]),
);

const blockRefSchema = z.object({ file: z.string(), offset: count, length: count });

const savedPaneSchema = z.object({
  uid,
  /** The `p<N>` of its stable id; absent in a file from before per-workspace numbers, where it was the uid. */
  stableNumber: uid.optional(),
  /** The argv it was started with (absent: the server's shell). */
  command: z.array(z.string()).min(1).optional(),
  /** The client's environment additions. */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** The pane's own label. */
  label: z.string().optional(),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(1000),
  agent: z.string().optional(),
  /** The occupant's id and name in the agent API: an agent that comes back in the pane takes them again. */
  agentInstanceId: z.string().optional(),
  agentName: z.string().optional(),
  /** Its queued prompts (docs/protocol.md §13.7), next first. */
  queue: z.array(z.object({ id: z.string(), text: z.string(), key: z.string().optional(), stallMs: z.number().int().min(1), createdAt: z.number() })).optional(),
  agentSession: z.object({ id: z.string().optional(), path: z.string().optional() }).optional(),
  history: z.object({ blocks: z.array(blockRefSchema), firstRow: count, tail: bytes.optional() }).optional(),
  screen: bytes.optional(),
});
export type SavedPane = z.output<typeof savedPaneSchema>;

const savedTabSchema = z.object({
  uid,
  label: z.string().optional(),
  focusedPaneUid: uid,
  layout: layoutSchema,
  /** Its focused pane fills it (pane.zoom); absent in an older file: not zoomed. */
  zoomed: z.boolean().optional(),
});
export type SavedTab = z.output<typeof savedTabSchema>;

const savedWorkspaceSchema = z.object({
  uid,
  label: z.string().optional(),
  /** The first tab's, as a file from before tabs had them (`tabs` wins when present). */
  focusedPaneUid: uid,
  layout: layoutSchema,
  /** Every tab in order; absent in a file from before tabs: one tab, the fields above. */
  tabs: z.array(savedTabSchema).min(1).optional(),
  activeTabUid: uid.optional(),
  /** The stable number its next pane gets; absent in an older file. */
  nextPaneNumber: uid.optional(),
  /** In creation order (compact pane numbers). */
  panes: z.array(savedPaneSchema).min(1),
  /** The git checkout it was made for (worktree.create / worktree.open). */
  worktree: z
    .object({ repo_key: z.string(), repo_name: z.string(), repo_root: z.string(), checkout_path: z.string(), is_linked_worktree: z.boolean() })
    .optional(),
});
export type SavedWorkspace = z.output<typeof savedWorkspaceSchema>;

/** An event rule as rules.add took it (docs/protocol.md §13.8); an output rule with the pane it watches. */
const savedRuleSchema = z.object({ id: z.string().regex(/^r\d+$/), spec: ruleSpecSchema, createdAt: z.number(), paneUid: uid.optional() });

const sessionSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(SESSION_VERSION),
  savedAt: z.number(),
  activeWorkspaceUid: uid.optional(),
  nextWorkspaceUid: uid,
  nextPaneUid: uid,
  workspaces: z.array(savedWorkspaceSchema),
  /** Absent in a file from before rules. */
  rules: z.array(savedRuleSchema).optional(),
  nextRuleId: uid.optional(),
  nextTurnId: uid.optional(),
});
export type SavedSession = z.output<typeof sessionSchema>;

export type SessionRead =
  | { kind: 'none' }
  | { kind: 'ok'; session: SavedSession }
  | { kind: 'bad'; reason: string };

export function encodeSession(session: Omit<SavedSession, 'format' | 'version'>): Buffer {
  return packr.pack({ format: FORMAT, version: SESSION_VERSION, ...session });
}

export function decodeSession(data: Uint8Array): SessionRead {
  let value: unknown;
  try {
    value = packr.unpack(data);
  } catch (error) {
    return { kind: 'bad', reason: `it cannot be decoded (${error instanceof Error ? error.message : String(error)}): truncated or corrupt` };
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > SESSION_VERSION) {
    return { kind: 'bad', reason: `it was written by a newer herdr (session version ${version}; this one reads ${SESSION_VERSION})` };
  }
  const parsed = sessionSchema.safeParse(value);
  if (!parsed.success) return { kind: 'bad', reason: `it is not a herdr session (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})` };
  const workspaceUids = parsed.data.workspaces.map((workspace) => workspace.uid);
  const paneUids = parsed.data.workspaces.flatMap((workspace) => workspace.panes.map((pane) => pane.uid));
  if (new Set(workspaceUids).size !== workspaceUids.length || new Set(paneUids).size !== paneUids.length) {
    return { kind: 'bad', reason: 'it names a workspace or pane twice' };
  }
  return { kind: 'ok', session: parsed.data };
}

export async function readSessionFile(path: string): Promise<SessionRead> {
  if (!existsSync(path)) return { kind: 'none' };
  const handle = await open(path, 'r');
  try {
    return decodeSession(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Writes `data` to `path` so that `path` always holds a whole file, the old one or the new one. */
export async function writeFileAtomically(path: string, data: Uint8Array): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** Moves a file out of the way under a name that says why and when; answers the new name. */
export function setAside(path: string, why: 'bad' | 'aside'): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const moved = `${path}.${why}-${stamp}`;
  renameSync(path, moved);
  return moved;
}
