/** The main thread's loop delay (`server.stats`): seen while clients ask, and no timer waking an idle server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoopDelayMonitor } from '../src/main/loop-delay.js';
import { sleep } from '../harness/poll.js';

function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('LoopDelayMonitor', () => {
  it('sees a stall while clients ask, and stops sampling after a window nobody asked in', async () => {
    const monitor = new LoopDelayMonitor(300);
    try {
      assert.equal(monitor.sampling, true, 'sampling from the start');
      await sleep(50);
      // An idle loop is late by next to nothing (the histogram's ticks are 20 ms apart: that is not delay).
      assert.ok(monitor.p99Ms() < 15, `an idle loop reads ${monitor.p99Ms()} ms at p99`);
      stall(120);
      await sleep(50);
      assert.ok(monitor.maxMs() >= 90 && monitor.maxMs() <= 125, `a 120 ms stall reads as ${monitor.maxMs()} ms`);
      // Two windows without a request: nothing samples, and the figures are gone with them.
      await sleep(1000);
      assert.equal(monitor.sampling, false, 'an idle server is not woken to be measured');
      assert.equal(monitor.maxMs(), 0);
      monitor.asked();
      assert.equal(monitor.sampling, true, 'a request starts sampling again');
    } finally {
      monitor.stop();
    }
  });
});
