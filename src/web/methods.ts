/**
 * The methods the page may call through `herdr web`: what the fleet view,
 * the large pane and its actions use, and no more (no `server.stop`, no
 * hook reports). `--read-only` keeps only the ones that change nothing.
 */
import type { MethodName } from '../protocol/methods.js';

const READ_METHODS = [
  'ping',
  'session.snapshot',
  'workspace.list',
  'workspace.get',
  'pane.list',
  'pane.get',
  'pane.read',
  'agent.list',
  'agent.get',
  'agent.read',
  'worktree.list',
  'approvals.list',
] as const satisfies readonly MethodName[];

/** Typing, a menu's answer, fit to window, close, prompt, "+ agent" (with its worktree). */
const WRITE_METHODS = [
  'pane.send_text',
  'approvals.answer',
  'pane.resize',
  'pane.close',
  'agent.prompt',
  'agent.start',
  'worktree.create',
] as const satisfies readonly MethodName[];

/** A method the page may call (the page's `link.call` is typed by it, from the method table). */
export type PageMethod = (typeof READ_METHODS)[number] | (typeof WRITE_METHODS)[number];

export function allowedMethods(readOnly: boolean): ReadonlySet<string> {
  return new Set<string>(readOnly ? READ_METHODS : [...READ_METHODS, ...WRITE_METHODS]);
}
