/**
 * The shard's timing pieces on a hand-moved clock: when output is parsed
 * (output-coalescer.ts), when screens are looked at (evaluation-scheduler.ts)
 * when pane facts are posted (fact-reporter.ts), how often a pane's
 * changes reach main (report-throttle.ts) and when a leaving agent is seen
 * gone (agent-checks.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentPicture, PaneUpdate } from '../src/protocol/thread.js';
import { AgentChecks, PROCESS_TICK_MS, QUIET_PROCESS_CHECK_MS } from '../src/workers/agents/agent-checks.js';
import { AGENT_LINGER_MS, type Foreground, PaneAgent } from '../src/workers/agents/pane-agent.js';
import { EVALUATION_INTERVAL_MS, EvaluationScheduler, WORKING_LOOK_INTERVAL_MS } from '../src/workers/evaluation-scheduler.js';
import { CWD_INTERVAL_MS, type FactSource, FactReporter, SWEEP_INTERVAL_MS, UPDATE_INTERVAL_MS } from '../src/workers/fact-reporter.js';
import {
  FULL_READ_BYTES,
  MAX_PENDING_BYTES,
  MAX_WAIT_MS,
  OutputCoalescer,
  QUIET_GAP_MS,
} from '../src/workers/output-coalescer.js';
import { REPORTS_PER_SECOND, REPORT_BURST, ReportThrottle } from '../src/workers/report-throttle.js';
import { ManualClock } from './helpers/clock.js';

const fullRead = () => new Uint8Array(FULL_READ_BYTES).fill(0x61);

describe('OutputCoalescer', () => {
  const setup = () => {
    const clock = new ManualClock();
    const parsed: number[] = [];
    const coalescer = new OutputCoalescer((data) => parsed.push(data.length), clock);
    return { clock, parsed, coalescer };
  };

  it('parses a short read at once: a program that is not flooding waits for nothing', () => {
    const { parsed, coalescer } = setup();
    coalescer.push(new Uint8Array(10));
    assert.deepEqual(parsed, [10]);
  });

  it('gathers full reads and parses them together with the short read that ends them', () => {
    const { parsed, coalescer } = setup();
    coalescer.push(fullRead());
    coalescer.push(fullRead());
    assert.deepEqual(parsed, []);
    assert.equal(coalescer.pending, 2 * FULL_READ_BYTES);
    coalescer.push(new Uint8Array(100));
    assert.deepEqual(parsed, [2 * FULL_READ_BYTES + 100]);
    assert.equal(coalescer.pending, 0);
  });

  it('parses at once when the pending output reaches its bound (flow control stays at the source)', () => {
    const { parsed, coalescer } = setup();
    const reads = Math.ceil(MAX_PENDING_BYTES / FULL_READ_BYTES);
    for (let i = 0; i < reads; i++) coalescer.push(fullRead());
    assert.deepEqual(parsed, [reads * FULL_READ_BYTES]);
  });

  it('parses a quiet pane’s last full read after the quiet gap', () => {
    const { clock, parsed, coalescer } = setup();
    coalescer.push(fullRead());
    clock.advance(QUIET_GAP_MS - 1);
    assert.deepEqual(parsed, []);
    clock.advance(1);
    assert.deepEqual(parsed, [FULL_READ_BYTES]);
  });

  it('does not call a pane quiet when the shard was busy and could not read it', () => {
    const { clock, parsed, coalescer } = setup();
    coalescer.push(fullRead());
    clock.stall(QUIET_GAP_MS + 20);
    clock.advance(0);
    assert.deepEqual(parsed, [], 'the late check waits for a poll');
    coalescer.push(fullRead());
    clock.advance(QUIET_GAP_MS + 1);
    assert.deepEqual(parsed, [2 * FULL_READ_BYTES]);
  });

  it('never holds output longer than its longest wait, even when every check finds the shard busy', () => {
    const { clock, parsed, coalescer } = setup();
    coalescer.push(fullRead());
    let waited = 0;
    while (parsed.length === 0 && waited < 2 * MAX_WAIT_MS) {
      clock.stall(QUIET_GAP_MS * 2);
      waited += QUIET_GAP_MS * 2;
      clock.advance(0);
    }
    assert.deepEqual(parsed, [FULL_READ_BYTES]);
    assert.ok(waited >= MAX_WAIT_MS && waited <= MAX_WAIT_MS + 2 * QUIET_GAP_MS, `parsed after ${waited} ms`);
  });

  it('drain parses what is pending (a client reads the pane) and dispose drops it', () => {
    const { clock, parsed, coalescer } = setup();
    coalescer.push(fullRead());
    coalescer.drain();
    assert.deepEqual(parsed, [FULL_READ_BYTES]);
    coalescer.push(fullRead());
    coalescer.dispose();
    clock.advance(MAX_WAIT_MS);
    assert.deepEqual(parsed, [FULL_READ_BYTES]);
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('EvaluationScheduler', () => {
  it('looks at a quiet pane at the end of the turn, and at a busy one once per interval', () => {
    const clock = new ManualClock();
    const looks: Array<[number, number]> = [];
    const scheduler = new EvaluationScheduler((uid, now) => looks.push([uid, now]), clock);
    const start = clock.now();
    scheduler.changed(1);
    scheduler.changed(1);
    assert.equal(looks.length, 0);
    clock.endTurn();
    assert.equal(looks.length, 1, 'once');
    assert.equal(looks[0]?.[1], start, "on the leading edge");
    for (let t = 0; t < 5 * EVALUATION_INTERVAL_MS; t++) {
      scheduler.changed(1);
      clock.endTurn();
      clock.advance(1);
    }
    const times = looks.map(([, now]) => now - start);
    assert.ok(looks.length >= 5 && looks.length <= 7, `looks: ${times.join(', ')}`);
    for (let i = 1; i < times.length; i++) assert.ok((times[i] ?? 0) - (times[i - 1] ?? 0) >= EVALUATION_INTERVAL_MS);
  });

  it('looks at a working pane once per its longer interval, and sooner once it needs a closer look', () => {
    const clock = new ManualClock();
    const looks: Array<[number, number]> = [];
    const scheduler = new EvaluationScheduler((uid, now) => looks.push([uid, now]), clock);
    const start = clock.now();
    // Two panes redraw every 5 ms: pane 1 at the working interval, pane 2 at the usual one.
    for (let t = 0; t < 3 * WORKING_LOOK_INTERVAL_MS; t += 5) {
      scheduler.changed(1, WORKING_LOOK_INTERVAL_MS);
      scheduler.changed(2);
      clock.endTurn();
      clock.advance(5);
    }
    const timesOf = (uid: number) => looks.filter(([pane]) => pane === uid).map(([, now]) => now - start);
    const working = timesOf(1);
    assert.deepEqual(working, [0, 1, 2, 3].map((n) => n * WORKING_LOOK_INTERVAL_MS), 'the leading edge, then once per working interval');
    assert.ok(timesOf(2).length >= (3 * WORKING_LOOK_INTERVAL_MS) / (EVALUATION_INTERVAL_MS + 5), `pane 2: ${timesOf(2).join(', ')}`);
    // Its agent stopped working (or a matcher now waits on it): the look comes within the usual interval, not the longer one.
    const last = working.at(-1) as number;
    clock.advance(1);
    scheduler.changed(1, WORKING_LOOK_INTERVAL_MS);
    scheduler.changed(1);
    clock.advance(EVALUATION_INTERVAL_MS);
    const after = timesOf(1).filter((t) => t > last);
    assert.equal(after.length, 1, `looks after the switch: ${after.join(', ')}`);
    assert.ok((after[0] as number) - last <= EVALUATION_INTERVAL_MS + 5, `looked at ${after[0]} ms, ${(after[0] as number) - last} after the last`);
  });

  it('forgets a pane', () => {
    const clock = new ManualClock();
    const looks: number[] = [];
    const scheduler = new EvaluationScheduler((uid) => looks.push(uid), clock);
    scheduler.changed(1);
    clock.endTurn();
    scheduler.changed(1);
    scheduler.forget(1);
    clock.advance(EVALUATION_INTERVAL_MS * 2);
    assert.deepEqual(looks, [1]);
  });
});

describe('FactReporter', () => {
  it('posts only what changed, batched per interval, and a sweep finds a cwd that changed silently', () => {
    const clock = new ManualClock();
    const posts: PaneUpdate[][] = [];
    const cwds = new Map<number, string>([[100, '/a'], [200, '/b']]);
    const reporter = new FactReporter((updates) => posts.push(updates), { cwd: (pid) => cwds.get(pid), label: (cwd) => `~${cwd}` }, clock);
    const one: FactSource = { uid: 1, pid: 100, revision: 0, title: '' };
    const two: FactSource = { uid: 2, pid: 200, revision: 0, title: '' };
    reporter.add(one, '/a');
    reporter.add(two, '/b');

    Object.assign(one, { revision: 1 });
    reporter.touch(1);
    Object.assign(one, { revision: 2, title: 'vim' });
    reporter.touch(1);
    reporter.touch(2);
    clock.advance(UPDATE_INTERVAL_MS - 1);
    assert.equal(posts.length, 0);
    clock.advance(1);
    assert.deepEqual(posts, [[{ paneUid: 1, revision: 2, title: 'vim' }]], 'pane 2 changed nothing');

    // The cwd reads put off until CWD_INTERVAL_MS had passed since the panes were added find nothing new.
    clock.advance(CWD_INTERVAL_MS);
    assert.equal(posts.length, 1);
    cwds.set(200, '/c');
    clock.advance(SWEEP_INTERVAL_MS);
    assert.equal(posts.length, 1, 'no timer of its own sweeps: the shard\'s tick does');
    reporter.sweep();
    assert.deepEqual(posts[1], [{ paneUid: 2, cwd: '/c', cwdLabel: '~/c' }], 'at once, not a batch later');

    reporter.remove(1);
    reporter.touch(1);
    clock.advance(UPDATE_INTERVAL_MS);
    assert.equal(posts.length, 2);
  });
});

describe('FactReporter: the foreground directory', () => {
  it('reads the directory of the process in front only while it is not the pane\'s own, and says when that ends', () => {
    const clock = new ManualClock();
    const posts: PaneUpdate[][] = [];
    const cwds = new Map<number, string>([[100, '/repo'], [300, '/repo/web']]);
    const read: number[] = [];
    const reporter = new FactReporter((updates) => posts.push(updates), { cwd: (pid) => (read.push(pid), cwds.get(pid)), label: (dir) => dir }, clock);
    let front: number | undefined = 100;
    const pane: FactSource = { uid: 1, pid: 100, revision: 0, title: '' };
    reporter.add(pane, '/repo', () => front);
    clock.advance(CWD_INTERVAL_MS);
    reporter.touch(1);
    clock.advance(UPDATE_INTERVAL_MS);
    assert.deepEqual(read, [100], 'the shell in front: its own directory only');
    assert.deepEqual(posts, []);

    front = 300;
    clock.advance(CWD_INTERVAL_MS);
    reporter.touch(1);
    clock.advance(UPDATE_INTERVAL_MS);
    assert.deepEqual(posts.at(-1), [{ paneUid: 1, foregroundCwd: '/repo/web' }]);

    front = 100;
    clock.advance(CWD_INTERVAL_MS);
    reporter.touch(1);
    clock.advance(UPDATE_INTERVAL_MS);
    assert.deepEqual(posts.at(-1), [{ paneUid: 1, foregroundCwd: null }], 'back to the pane\'s own');
  });
});

describe('FactReporter under a flood', () => {
  it('reads a flooding pane\'s cwd at most every CWD_INTERVAL_MS, and still sees a cd within that', () => {
    const clock = new ManualClock();
    const posts: PaneUpdate[][] = [];
    let cwd = '/a';
    let reads = 0;
    const reporter = new FactReporter((updates) => posts.push(updates), { cwd: () => (reads++, cwd), label: (dir) => dir }, clock);
    const pane: FactSource = { uid: 1, pid: 100, revision: 0, title: '' };
    reporter.add(pane, '/a');
    for (let ms = 0; ms < 1000; ms += 10) {
      Object.assign(pane, { revision: pane.revision + 1 });
      reporter.touch(1);
      clock.advance(10);
    }
    assert.ok(reads <= 1000 / CWD_INTERVAL_MS + 1, `${reads} cwd reads in a flooded second`);
    assert.ok(posts.length >= 1000 / UPDATE_INTERVAL_MS - 1, `revisions still posted every batch: ${posts.length}`);
    cwd = '/b';
    const before = posts.length;
    for (let ms = 0; ms < CWD_INTERVAL_MS + UPDATE_INTERVAL_MS; ms += 10) {
      Object.assign(pane, { revision: pane.revision + 1 });
      reporter.touch(1);
      clock.advance(10);
    }
    assert.ok(posts.slice(before).some((batch) => batch.some((update) => update.cwd === '/b')), 'the cd is posted');
  });
});

describe('ReportThrottle', () => {
  it('passes a burst at once, then one change per token: the latest, unless it is what was passed last', () => {
    const clock = new ManualClock();
    const passed: string[] = [];
    const throttle = new ReportThrottle<string>((value) => passed.push(value), (a, b) => a === b, clock);
    const tokenMs = 1000 / REPORTS_PER_SECOND;
    for (let i = 0; i < REPORT_BURST; i++) throttle.offer(`command ${i}`);
    assert.equal(passed.length, REPORT_BURST, 'a burst passes at once, every change of it');
    for (let i = 0; i < 1000; i++) throttle.offer(i % 2 === 0 ? 'idle' : 'working');
    throttle.offer('idle');
    assert.equal(passed.length, REPORT_BURST, 'past the burst nothing at once');
    clock.advance(tokenMs);
    assert.deepEqual(passed.slice(REPORT_BURST), ['idle'], 'the latest when the next token comes');
    throttle.offer('working');
    throttle.offer('idle');
    clock.advance(tokenMs);
    assert.deepEqual(passed.slice(REPORT_BURST), ['idle'], 'a flicker back to what was passed last passes nothing');
    // A flood for a second passes about REPORTS_PER_SECOND changes.
    for (let ms = 0; ms < 1000; ms += 5) {
      throttle.offer(ms % 10 === 0 ? 'working' : 'idle');
      clock.advance(5);
    }
    const flood = passed.length - REPORT_BURST - 1;
    assert.ok(flood <= REPORTS_PER_SECOND + 1, `${flood} changes passed in a flooded second`);
    clock.advance(1000);
    throttle.offer('blocked');
    assert.equal(passed.at(-1), 'blocked', 'after a quiet second, at once again');
    throttle.offer('idle');
    throttle.offer('working');
    throttle.dispose();
    clock.advance(1000);
    assert.equal(passed.at(-1), 'working', 'with tokens to spare each change passes');
  });
});

describe('AgentChecks: who is in front', () => {
  it('tells when a process check finds another group in front, and only then (foreground_cwd is read again)', () => {
    const clock = new ManualClock();
    let front: Foreground = { pgid: 10, agent: undefined };
    const pane = { pid: 10, ended: false, screen: () => '$ ', title: () => '', readsKeys: () => undefined };
    const checks = new AgentChecks(pane, () => undefined, clock, new PaneAgent(10, () => front));
    let told = 0;
    checks.onForegroundChanged = () => told++;
    checks.screenChanged(clock.now());
    assert.equal(told, 1, 'the first check finds the shell');
    clock.advance(QUIET_PROCESS_CHECK_MS);
    checks.tick(clock.now());
    assert.equal(told, 1, 'the same group again is no change');
    // A program takes the terminal and prints nothing: the next check that runs sees it.
    front = { pgid: 30, agent: undefined };
    clock.advance(QUIET_PROCESS_CHECK_MS);
    checks.tick(clock.now());
    assert.equal(told, 2);
    assert.equal(checks.foregroundGroup, 30);
    checks.dispose();
  });
});

describe('AgentChecks: an agent leaving its pane', () => {
  it('is seen gone when its linger ends, even when a program status began the linger between ticks', () => {
    const clock = new ManualClock();
    let front: Foreground = { pgid: 20, agent: 'claude' };
    const pictures: AgentPicture[] = [];
    const pane = { pid: 10, ended: false, screen: () => '$ ', title: () => '', readsKeys: () => undefined };
    const checks = new AgentChecks(pane, (picture) => pictures.push(picture), clock, new PaneAgent(10, () => front));
    checks.screenChanged(clock.now());
    assert.equal(checks.detected, 'claude');

    // The agent exits without drawing; its shell's group is in front. No tick comes in this test:
    // the status is the only check before the linger ends.
    clock.advance(10_000);
    front = { pgid: 10, agent: undefined };
    checks.programStatus({ state: 'idle' });
    assert.equal(checks.lingering, true);
    assert.equal(checks.wantsQuickTick, false, 'the linger does not keep the shard ticking every second');
    clock.advance(AGENT_LINGER_MS - 1);
    assert.equal(checks.detected, 'claude', 'still lingering');
    clock.advance(1);
    assert.equal(checks.detected, undefined, 'gone when the linger ends, not at the next quiet tick');
    clock.advance(PROCESS_TICK_MS);
    assert.equal(pictures.at(-1)?.agent, undefined, 'and main is told');
    checks.dispose();
  });

  it('keeps the agent that comes back during its linger', () => {
    const clock = new ManualClock();
    let front: Foreground = { pgid: 20, agent: 'codex' };
    const pane = { pid: 10, ended: false, screen: () => '', title: () => '', readsKeys: () => undefined };
    const checks = new AgentChecks(pane, () => undefined, clock, new PaneAgent(10, () => front));
    checks.screenChanged(clock.now());
    clock.advance(1000);
    front = { pgid: 10, agent: undefined };
    checks.programStatus({ state: 'working' });
    assert.equal(checks.lingering, true);
    clock.advance(1000);
    front = { pgid: 30, agent: 'codex' };
    checks.programStatus({ state: 'working' });
    assert.equal(checks.lingering, false);
    clock.advance(AGENT_LINGER_MS * 2);
    assert.equal(checks.detected, 'codex');
    checks.dispose();
  });
});
