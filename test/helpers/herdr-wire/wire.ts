/**
 * A client of herdr's current protocol for the wire test: every request goes to the
 * server's current socket (docs/protocol.md §15.1) as herdr's clients write it, one line
 * on its own connection, and every answer is checked against herdr's shapes (shapes.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { type TestServer, promptShown, rawExchange, statsUntil } from '../server.js';
import { type ResultType, errorEnvelope, successEnvelope } from './shapes.js';

export type Answer = Record<string, any>;

/** Parses `value` with `schema`; on failure the message names each field that broke and what was sent. */
export function assertShape(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const issues = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n');
  assert.fail(`${what} is not herdr's wire shape:\n${issues}\nsent: ${JSON.stringify(value).slice(0, 2000)}`);
}

export interface Opened {
  workspace: string;
  tab: string;
  pane: string;
}

let sequence = 0;

/**
 * One request line on a fresh connection and its one answer, parsed; waits (events.wait,
 * agent.wait, …) may take up to `timeoutMs`, after which the missing answer fails here.
 */
export async function answerOn(socketPath: string, request: { id: string; method: string; params: unknown }, timeoutMs = 20_000): Promise<Answer> {
  const { lines } = await rawExchange(socketPath, `${JSON.stringify(request)}\n`, timeoutMs);
  assert.equal(lines.length, 1, `one answer to ${request.method} within ${timeoutMs} ms: ${JSON.stringify(lines).slice(0, 500)}`);
  return JSON.parse(lines[0] ?? '') as Answer;
}

export class Wire {
  constructor(readonly server: TestServer) {}

  get socketPath(): string {
    return this.server.currentSocketPath;
  }

  /** One request on the current socket: the answer as it came, whatever it is. */
  send(method: string, params: unknown, id = `wire-${++sequence}`): Promise<Answer> {
    return answerOn(this.socketPath, { id, method, params });
  }

  /** A request that must succeed with herdr's result `type`: its result, checked. */
  async ok(method: string, params: unknown, type: ResultType): Promise<Answer> {
    const id = `wire-${++sequence}`;
    const answer = await this.send(method, params, id);
    this.check(type, answer, `${method} (setup)`);
    return answer.result as Answer;
  }

  /** Checks an answer against herdr's success envelope of `type`. */
  check(type: ResultType, answer: Answer, what: string): void {
    assert.equal(answer.error, undefined, `${what} failed: ${JSON.stringify(answer.error)}`);
    assertShape(successEnvelope(type, String(answer.id)), answer, what);
  }

  /** Checks an answer is herdr's error envelope with `code`. */
  checkError(code: string, answer: Answer, what: string): void {
    assertShape(errorEnvelope(String(answer.id)), answer, what);
    assert.equal(answer.error.code, code, `${what}: ${JSON.stringify(answer)}`);
  }

  /** A new workspace of one shell pane, made by herdr's `workspace.create`: its ids. */
  async workspace(label = 'wire', cwd = this.server.dir): Promise<Opened> {
    const { workspace, tab, root_pane } = await this.ok('workspace.create', { cwd, label }, 'workspace_created');
    return { workspace: workspace.workspace_id, tab: tab.tab_id, pane: root_pane.pane_id };
  }

  /** A workspace whose pane shows its shell prompt (ready for typed commands). */
  async shell(label = 'wire'): Promise<Opened> {
    const opened = await this.workspace(label);
    await promptShown(this.server, opened.pane);
    return opened;
  }

  /** A second pane beside `pane`: its id. */
  async split(pane: string, direction: 'right' | 'down' = 'right'): Promise<string> {
    const { pane: made } = await this.ok('pane.split', { target_pane_id: pane, direction, cwd: this.server.dir }, 'pane_info');
    return made.pane_id as string;
  }

  /** A second tab in `workspace`: its id and its pane's. */
  async tab(workspace: string, label = 'second'): Promise<{ tab: string; pane: string }> {
    const { tab, root_pane } = await this.ok('tab.create', { workspace_id: workspace, cwd: this.server.dir, label }, 'tab_created');
    return { tab: tab.tab_id, pane: root_pane.pane_id };
  }

  /** An agent of ours (the fake agent, which tells its state), started in a workspace of its own: its pane. */
  async agent(name: string, fakeAgent: string): Promise<string> {
    const started = await this.server.call('agent.start', { name, command: [fakeAgent], cwd: this.server.dir, timeout_ms: 15_000 });
    return started.agent.terminal_id;
  }

  /** Waits until `count` waits are registered on the server (so the event it waits for cannot come first). */
  async waitsRegistered(count: number): Promise<void> {
    await statsUntil(this.server, (stats) => stats.waits >= count, `${count} wait(s) registered`);
  }
}

/** A git repository of one commit in `dir`/`name`, for the worktree methods. */
export function gitRepository(dir: string, name: string): string {
  const repo = join(dir, name);
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@herdr.invalid', '-c', 'commit.gpgsign=false', ...args], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  return repo;
}

/** `git worktree add` done outside the server: a checkout of a new branch at `path`. */
export function gitWorktree(repo: string, branch: string, path: string): void {
  execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', branch, path], { stdio: 'ignore' });
}
