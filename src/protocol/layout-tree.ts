/**
 * A workspace's split tree as data (docs/protocol.md §5.2): `layout.export`
 * answers it, `layout.apply` builds a new workspace from it, `session.snapshot`
 * lists one per workspace. A leaf is a pane, a split holds two children and
 * gives the first `ratio` of its width (`right`) or height (`down`).
 */
import { z } from 'zod';
import { SPLIT_DIRECTIONS, type SplitDirection } from './enums.js';
import { ProtocolError } from './errors.js';
import { environment, execText, label } from './params.js';

/** Far more than a screen shows, and it bounds what one request may start (herdr allows 24). */
export const MAX_LAYOUT_PANES = 128;
/** Splits from the root to the deepest leaf (herdr's limit). */
export const MAX_LAYOUT_DEPTH = 16;

export interface LayoutPaneNode {
  type: 'pane';
  pane_id?: string | undefined;
  label?: string | undefined;
  cwd?: string | undefined;
  command?: string[] | undefined;
  env?: Record<string, string> | undefined;
}

export interface LayoutSplitNode {
  type: 'split';
  direction: SplitDirection;
  ratio: number;
  first: LayoutTreeNode;
  second: LayoutTreeNode;
}

/** A node of the tree as the wire carries it (tagged by `type`). */
export type LayoutTreeNode = LayoutPaneNode | LayoutSplitNode;

const paneNode = z.object({
  type: z.literal('pane'),
  pane_id: z.string().optional().describe('the pane\'s id, filled in by layout.export; layout.apply ignores it'),
  label: label.optional().describe('the pane\'s own label (pane_info.label)'),
  cwd: execText.optional().describe('the directory it starts in; without it, the one of its split\'s first leaf'),
  command: z.array(execText).min(1, 'command needs at least the program').optional().describe('argv, run directly (never through a shell); without it, the server\'s shell'),
  env: environment.optional().describe('variables added to its environment (HERDR_* are the server\'s)'),
});

export const layoutNodeSchema: z.ZodType<LayoutTreeNode> = z
  .lazy(() => z.discriminatedUnion('type', [paneNode, splitNode]))
  .meta({ id: 'LayoutNode', description: 'a pane (leaf) or a split of two nodes' });

const splitNode = z.object({
  type: z.literal('split'),
  direction: z.enum(SPLIT_DIRECTIONS).describe('right: side by side; down: stacked'),
  ratio: z.number().gt(0).lt(1).describe('the first child\'s share, between 0 and 1 (both excluded)'),
  first: layoutNodeSchema,
  second: layoutNodeSchema,
});

export const layoutDescriptionSchema = z.object({
  workspace_id: z.string(),
  tab_id: z.string().describe('the tab whose layout this is (§5.3)'),
  zoomed: z.boolean().describe('the tab is zoomed: its focused pane fills it (pane.zoom, §5.4)'),
  focused_pane_id: z.string(),
  root: layoutNodeSchema,
});
export type LayoutDescription = z.output<typeof layoutDescriptionSchema>;

/**
 * `layout.apply`'s `root` as a client sends it: the size is checked by a walk
 * that follows only splits (a hostile nesting never reaches zod's recursion),
 * absent fields sent as `null` are dropped, then the tree is validated. A bad
 * tree is thrown as `invalid_layout` rather than reported as a zod issue, so
 * that the answer names the tree, not the request (`invalid_request`).
 */
export const layoutTreeParam = z.preprocess((value: LayoutTreeNode) => checkedTree(value), layoutNodeSchema);

function checkedTree(value: unknown): LayoutTreeNode {
  let panes = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() ?? { node: undefined, depth: 0 };
    if (!isObject(node)) continue;
    for (const [key, field] of Object.entries(node)) if (field === null) delete node[key];
    if (node.type !== 'split') {
      if (++panes > MAX_LAYOUT_PANES) throw new ProtocolError('invalid_layout', `a layout has at most ${MAX_LAYOUT_PANES} panes`);
      continue;
    }
    if (depth >= MAX_LAYOUT_DEPTH) throw new ProtocolError('invalid_layout', `a layout nests at most ${MAX_LAYOUT_DEPTH} splits deep`);
    stack.push({ node: node.second, depth: depth + 1 }, { node: node.first, depth: depth + 1 });
  }
  const parsed = layoutNodeSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${['root', ...issue.path.map(String)].join('.')}: ${issue.message}`);
    throw new ProtocolError('invalid_layout', `invalid layout: ${problems.join('; ')}`);
  }
  return parsed.data;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The leaves in layout order (depth first, first child first), each with its path (`root.first.second`). */
export function layoutLeaves(node: LayoutTreeNode, path = 'root', into: Array<{ path: string; leaf: LayoutPaneNode }> = []): Array<{ path: string; leaf: LayoutPaneNode }> {
  if (node.type === 'pane') into.push({ path, leaf: node });
  else {
    layoutLeaves(node.first, `${path}.first`, into);
    layoutLeaves(node.second, `${path}.second`, into);
  }
  return into;
}
