/**
 * Ending panes' processes by their mark (src/os/pane-processes.ts), on real processes
 * found in /proc: what carries one of the marks ends, and nothing else does, not a
 * process whose mark is another pane's nor one that only mentions the mark in another
 * variable's value; panes that end in one turn are ended together.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, it } from 'node:test';
import { PANE_MARK_ENV, endPaneProcesses, endPaneSoon } from '../src/os/pane-processes.js';
import { eventually } from './helpers/server.js';

const started: ChildProcess[] = [];

/** A `sleep` in a process session of its own (as a daemon a pane started would be), with `env` only. */
function sleeper(env: Record<string, string>): ChildProcess {
  const child = spawn('/bin/sleep', ['30'], { env, detached: true, stdio: 'ignore' });
  started.push(child);
  return child;
}

/** The signal that ended `child`, or undefined if it is still running after `ms`. */
async function endedBy(child: ChildProcess, ms: number): Promise<NodeJS.Signals | null | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return child.signalCode;
  const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, ms));
  const exit = once(child, 'exit').then(() => child.signalCode);
  return Promise.race([exit, timeout]);
}

/** Until /proc shows the process's environment (spawn returns before the exec). */
async function execd(child: ChildProcess): Promise<void> {
  await eventually(() => {
    try {
      return readFileSync(`/proc/${child.pid}/cmdline`, 'latin1').startsWith('/bin/sleep');
    } catch {
      return false; // not there yet
    }
  }, `pid ${child.pid} to exec sleep`);
}

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

describe('pane processes', () => {
  it('end what carries one of the marks, and only that', async () => {
    const first = sleeper({ [PANE_MARK_ENV]: 'mark-a', PATH: '/usr/bin:/bin' });
    const second = sleeper({ PATH: '/usr/bin:/bin', [PANE_MARK_ENV]: 'mark-b' });
    const longer = sleeper({ [PANE_MARK_ENV]: 'mark-ab' });
    const mention = sleeper({ NOTE: `${PANE_MARK_ENV}=mark-a` });
    const unmarked = sleeper({ PATH: '/usr/bin:/bin' });
    await Promise.all(started.map(execd));
    endPaneProcesses([], ['mark-a', 'mark-b']);
    assert.equal(await endedBy(first, 2_000), 'SIGTERM');
    assert.equal(await endedBy(second, 2_000), 'SIGTERM');
    for (const spared of [longer, mention, unmarked]) assert.equal(await endedBy(spared, 300), undefined, `pid ${spared.pid} was spared`);
  });

  it('panes that end in one turn are hung up and their marks ended together', async () => {
    const leaders = [sleeper({}), sleeper({})];
    const daemons = [sleeper({ [PANE_MARK_ENV]: 'pane-1' }), sleeper({ [PANE_MARK_ENV]: 'pane-2' })];
    await Promise.all(started.map(execd));
    endPaneSoon(leaders[0]?.pid ?? 0, 'pane-1');
    endPaneSoon(leaders[1]?.pid ?? 0, 'pane-2');
    // Each leader's session is hung up, and what carries either mark gets SIGTERM.
    for (const leader of leaders) assert.equal(await endedBy(leader, 2_000), 'SIGHUP');
    for (const daemon of daemons) assert.equal(await endedBy(daemon, 2_000), 'SIGTERM');
  });
});
