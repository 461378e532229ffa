/**
 * Hostile input from clients: over ten thousand generated lines (test/helpers/fuzz-lines.ts)
 * on one-shot and keep-alive connections at once. Every line gets a well-formed
 * error or a result its method's schema describes, never `internal_error`; the
 * server never crashes; afterwards its fds, connections, waits and memory are
 * back near the start, nothing was run through a shell, and normal requests work.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { MAX_LINE_BYTES } from '../src/main/connection.js';
import { ERROR_CODES } from '../src/protocol/errors.js';
import { METHOD_PARAMS, METHOD_RESULTS, type MethodName, isMethodName } from '../src/protocol/methods.js';
import { type FuzzLine, fuzzLines, isStreamingMethod } from './helpers/fuzz-lines.js';
import { type TestServer, eventually, inspect, newWorkspace, promptShown, readUntil, startServer } from './helpers/server.js';
import { fdCount, fdTargets, rssBytes } from './helpers/proc.js';

const SEED = Number(process.env.HERDR_FUZZ_SEED ?? 20261203);
const LINE_COUNT = 10_500;
const ONE_SHOT_CONCURRENCY = 12;
const KEEP_ALIVE_CONNECTIONS = 6;
const PWNED = '/tmp/herdr-fuzz-pwned';

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** What is wrong with an answer, or undefined when it is well-formed (and its result fits its method). */
function problemWith(text: string, methodOf: (id: string) => string | undefined): string | undefined {
  let answer: Answer;
  try {
    answer = JSON.parse(text) as Answer;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof answer !== 'object' || answer === null || typeof answer.id !== 'string') return `no string id: ${text.slice(0, 200)}`;
  if (('result' in answer) === ('error' in answer)) return `not exactly one of result and error: ${text.slice(0, 200)}`;
  if (answer.error) {
    const { code, message } = answer.error;
    if (typeof code !== 'string' || !Object.hasOwn(ERROR_CODES, code)) return `unknown error code: ${text.slice(0, 200)}`;
    if (code === 'internal_error') return `internal_error (a bug): ${text.slice(0, 300)}`;
    if (typeof message !== 'string' || message === '') return `error without a message: ${text.slice(0, 200)}`;
    return undefined;
  }
  const method = methodOf(answer.id);
  if (method === undefined || !isMethodName(method)) return `a result for ${answer.id}, which named no method`;
  const parsed = METHOD_RESULTS[method].safeParse(answer.result);
  return parsed.success ? undefined : `${method} result does not fit its schema: ${parsed.error.message.slice(0, 300)}`;
}

/** One line on a connection of its own: every line the server writes, until it closes (or a stream is seen). */
function oneShot(socketPath: string, line: FuzzLine): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end to ${line.what} (${line.id ?? 'no id'}) after 15 s; got ${data.slice(0, 200)}`));
    }, 15_000);
    socket.on('connect', () => socket.end(Buffer.concat([line.bytes, Buffer.from('\n')])));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      // A subscription or stream stays open after its ack: the ack is all this line is owed.
      if (isStreamingMethod(line.method) && data.includes('\n')) socket.destroy();
    });
    socket.on('error', () => undefined); // EPIPE while the server refuses an over-long line
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data.split('\n').filter((l) => l !== ''));
    });
  });
}

/** Lines on one kept-alive connection, each made a keep-alive request where it is an object; resolves with every answer line. */
function keptAlive(socketPath: string, lines: FuzzLine[], expected: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let data = '';
    const answers: string[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`a kept-alive connection got ${answers.length} of ${expected} answers in 60 s`));
    }, 60_000);
    socket.on('connect', () => {
      // The first line makes the connection keep-alive; the fuzz lines follow.
      socket.write('{"id":"ka","method":"ping","params":{},"keep_alive":true}\n');
      for (const line of lines) socket.write(Buffer.concat([line.bytes, Buffer.from('\n')]));
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      let newline;
      while ((newline = data.indexOf('\n')) !== -1) {
        answers.push(data.slice(0, newline));
        data = data.slice(newline + 1);
      }
      if (answers.length >= expected + 1) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answers.slice(1));
      }
    });
    socket.on('error', (error) => reject(error));
    socket.on('close', () => {
      clearTimeout(timer);
      if (answers.length < expected + 1) reject(new Error(`a kept-alive connection closed after ${answers.length} of ${expected + 1} answers`));
    });
  });
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function closeEverything(server: TestServer): Promise<void> {
  for (;;) {
    const { workspaces } = await server.call('workspace.list', {});
    if (workspaces.length === 0) return;
    for (const workspace of workspaces) await server.call('workspace.close', { workspace_id: workspace.workspace_id }).catch(() => undefined);
  }
}

/** Sends one seed's lines; returns what was wrong with the answers. */
async function fuzzRound(server: TestServer, seed: number): Promise<{ lines: number; problems: string[] }> {
  // Not server.stop, which would end the run; nor the integrations, which write into a home (a mutation that drops
  // `home` would write into the tester's own): integration.test.ts gives them bad input on their own.
  const methods = (Object.keys(METHOD_PARAMS) as MethodName[]).filter((m) => m !== 'server.stop' && m !== 'integration.install' && m !== 'integration.uninstall');
  const lines = fuzzLines({ seed, count: LINE_COUNT, dir: server.dir, methods, maxLineBytes: MAX_LINE_BYTES });
  // An envelope with its id twice counts the last (`fz7x`), as JSON.parse does.
  const methodById = new Map(lines.flatMap((line) => (line.id && line.method ? [[line.id, line.method] as const, [`${line.id}x`, line.method] as const] : [])));
  methodById.set('ka', 'ping');
  const problems: string[] = [];
  const check = (text: string, line?: FuzzLine) => {
    const problem = problemWith(text, (id) => methodById.get(id));
    if (problem) problems.push(`${line ? `${line.what}: ` : ''}${problem}`);
  };

  // Every third line that may be goes on a kept-alive connection; the rest one to a connection.
  const keepAlive: FuzzLine[][] = Array.from({ length: KEEP_ALIVE_CONNECTIONS }, () => []);
  const oneShots: FuzzLine[] = [];
  lines.forEach((line, index) => {
    if (line.keepAliveOk && index % 3 === 0) keepAlive[index % KEEP_ALIVE_CONNECTIONS]?.push(line);
    else oneShots.push(line);
  });
  // A kept-alive connection answers every line but blank ones.
  const owed = (batch: FuzzLine[]) => batch.filter((line) => line.bytes.toString('utf8').trim() !== '').length;
  const keptAliveRuns = keepAlive.map(async (batch) => {
    for (const answer of await keptAlive(server.socketPath, batch, owed(batch))) check(answer);
  });
  await inParallel(oneShots, ONE_SHOT_CONCURRENCY, async (line) => {
    const answers = await oneShot(server.socketPath, line);
    const blank = line.bytes.toString('utf8').trim() === '';
    if (answers.length === 0 && !blank) problems.push(`${line.what} (${line.id ?? 'no id'}): closed without an answer`);
    if (answers.length > 1 && !isStreamingMethod(line.method)) problems.push(`${line.what}: ${answers.length} answers`);
    if (answers[0] !== undefined) check(answers[0], line);
  });
  await Promise.all(keptAliveRuns);
  return { lines: lines.length, problems };
}

/** Closes every workspace and waits until nothing of the fuzz is left: no panes, connections, waits, subscriptions or matchers. */
async function settle(server: TestServer): Promise<void> {
  await closeEverything(server);
  let left = '';
  await eventually(async () => {
    const { panes, shards, connections, waits, subscriptions, streams, matchers } = await server.call('server.stats', {});
    left = JSON.stringify({ panes, shardPanes: shards.map((s) => s.panes), connections, waits, subscriptions, streams, matchers });
    return panes === 0 && shards.every((s) => s.panes === 0) && connections === 1 && waits === 0 && subscriptions === 0 && streams === 0 && matchers === 0;
  }, 'no panes, connections, waits, subscriptions or matchers left', 20_000).catch((error: Error) => assert.fail(`${error.message}: ${left}`));
}

describe('hostile input from clients', () => {
  it(`3 × ${LINE_COUNT} generated lines: each answered well-formed, the server unharmed and back where it started (seed ${SEED})`, { timeout: 600_000 }, async (t) => {
    rmSync(PWNED, { force: true });
    // HERDR_DEBUG_FAULTS for debug.inspect: what the heap really retains, not what V8 keeps reserved.
    const server = await startServer({ workers: 2, shell: '/bin/cat', env: { HERDR_DEBUG_FAULTS: '1' } });
    try {
      // A shard opens a few fds for good at its first spawn: warm both up before counting.
      for (let i = 0; i < 2; i++) await newWorkspace(server);
      await settle(server);
      const fdsBefore = fdCount(server.pid);
      const targetsBefore = [...fdTargets(server.pid).values()].join(' ');
      const rss = [rssBytes(server.pid)];
      const heap = [(await inspect(server)).heap_used_bytes];

      // Three rounds: the first two fill what is bounded by design (the 4 096 retained events),
      // the third shows that nothing keeps growing.
      for (const seed of [SEED, SEED + 1, SEED + 2]) {
        for (let i = 0; i < 2; i++) await newWorkspace(server);
        await server.call('pane.split', { target_pane_id: '1-1', direction: 'down' });
        const { lines, problems } = await fuzzRound(server, seed);
        assert.ok(lines >= 10_000);
        assert.deepEqual(problems.slice(0, 20), [], `seed ${seed}: ${problems.length} bad answers`);
        assert.equal(server.running, true, 'the server is still running');
        await settle(server);
        await eventually(() => fdCount(server.pid) <= fdsBefore, `fds back to ${fdsBefore} (now ${fdCount(server.pid)}): before ${targetsBefore}; now ${[...fdTargets(server.pid).values()].join(' ')}`, 20_000);
        rss.push(rssBytes(server.pid));
        heap.push((await inspect(server)).heap_used_bytes);
      }
      const mb = (values: number[]) => values.map((bytes) => Math.round(bytes / 1e6)).join(' → ');
      t.diagnostic(`over three rounds: main heap after GC ${mb(heap)} MB, server RSS ${mb(rss)} MB, fds ${fdsBefore} → ${fdCount(server.pid)}`);
      const [, , second = 0, third = 0] = heap;
      assert.ok(third - second < 16 * 1024 * 1024, `the third round left ${Math.round((third - second) / 1e6)} MB more on the heap: a leak`);
      assert.ok((rss[3] ?? 0) < 600 * 1024 * 1024, `server RSS reached ${mb(rss)} MB`);
      assert.equal(existsSync(PWNED), false, 'something a client sent was run through a shell');

      const { paneId } = await newWorkspace(server, { command: ['/bin/sh'] });
      await promptShown(server, paneId);
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo after-the-fuzz' });
      await readUntil(server, paneId, (text) => /^after-the-fuzz$/m.test(text));
    } finally {
      await server.stop();
    }
  });
});
