/** `herdr layout export|apply` (docs/protocol.md §11): a workspace's split tree as JSON, and a new workspace from one. */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import type { LayoutTreeNode } from '../../protocol/layout-tree.js';
import { type SocketOption, send, shown } from '../output.js';
import { layoutApplied } from '../human/workspaces.js';
import { fail, messageOf } from '../failure.js';

export function addLayoutCommands(program: Command): void {
  const layout = program.command('layout').description('export a workspace\'s split tree, or build a workspace from one');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(
    layout
      .command('export')
      .description('print a workspace\'s split tree as JSON (default: the active workspace)')
      .option('--workspace <id>', 'this workspace')
      .option('--pane <id>', 'the workspace of this pane')
      // The tree is data to keep and apply, as JSON on a terminal too.
      .option('--json', 'print the answer as JSON (its only form: a file for layout apply)'),
  ).action((flags: SocketOption & { workspace?: string; pane?: string }) =>
    send(
      'cli:layout:export',
      'layout.export',
      {
        ...(flags.workspace === undefined ? {} : { workspace_id: flags.workspace }),
        ...(flags.pane === undefined ? {} : { pane_id: flags.pane }),
      },
      flags,
    ),
  );

  socket(
    layout
      .command('apply')
      .argument('<file>', 'JSON: what `layout export` printed, its layout, or a bare root node; - for stdin')
      .description('build a new workspace from a split tree in one request (a relative leaf cwd is relative to the file\'s directory)')
      .option('--label <label>', 'the new workspace\'s label')
      .option('--focus', 'make it the active workspace'),
  ).action((file: string, flags: SocketOption & { label?: string; focus?: boolean }) => {
    const root = layoutRoot(readJson(file));
    resolveCwds(root, file === '-' ? process.cwd() : dirname(resolve(file)));
    return send(
      'cli:layout:apply',
      'layout.apply',
      // The server checks the tree (invalid_layout); the CLI only finds it in the file.
      { root: root as LayoutTreeNode, focus: flags.focus ?? false, ...(flags.label === undefined ? {} : { label: flags.label }) },
      flags,
      shown(layoutApplied),
    );
  });
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    fail(`cannot read ${file}: ${messageOf(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    fail(`${file} is not JSON: ${messageOf(error)}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The root node in `layout export`'s output (`{id, result: {layout: {root}}}`), in a layout description (`{root}`), or the node itself. */
function layoutRoot(value: unknown): unknown {
  if (!isObject(value)) return value;
  if (isObject(value.result)) return layoutRoot(value.result);
  if (isObject(value.layout)) return layoutRoot(value.layout);
  if ('root' in value) return value.root;
  return value;
}

/** Makes each leaf's relative `cwd` absolute against `base` (the server would take it relative to its own directory). */
function resolveCwds(root: unknown, base: string): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    if (node.type === 'split') stack.push(node.first, node.second);
    else if (typeof node.cwd === 'string' && !isAbsolute(node.cwd)) node.cwd = resolve(base, node.cwd);
  }
}
