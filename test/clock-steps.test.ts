/**
 * The shard's timing pieces on the real clock (src/workers/clock.ts) while the
 * wall clock steps back an hour (NTP, a suspended VM, someone setting the
 * date): each still acts within its normal delay, as time on the real clock
 * is monotonic. On Date.now() each would wait out the hour.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { realClock } from '../src/workers/clock.js';
import { EVALUATION_INTERVAL_MS, EvaluationScheduler } from '../src/workers/evaluation-scheduler.js';
import { FULL_READ_BYTES, OutputCoalescer } from '../src/workers/output-coalescer.js';
import { REPORT_BURST, ReportThrottle } from '../src/workers/report-throttle.js';

const HOUR_MS = 3_600_000;
/** Far above each piece's delay (tens of ms), far below the hour a stall would take. */
const GENEROUS_MS = 2000;

/** Runs `body` with Date.now() an hour behind, then puts it back. */
async function withWallClockBack<T>(body: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => realNow.call(Date) - HOUR_MS;
  try {
    return await body();
  } finally {
    Date.now = realNow;
  }
}

/** Waits on real timers until `done` holds; answers how long it took, or undefined past GENEROUS_MS. */
async function within(done: () => boolean): Promise<number | undefined> {
  const start = performance.now();
  while (!done()) {
    if (performance.now() - start > GENEROUS_MS) return undefined;
    await sleep(5);
  }
  return performance.now() - start;
}

describe('timing when the wall clock steps back', () => {
  it('the report throttle still lets a waiting report through', async () => {
    const passed: number[] = [];
    const throttle = new ReportThrottle<number>((value) => passed.push(value), (a, b) => a === b, realClock);
    try {
      for (let i = 0; i < REPORT_BURST; i++) throttle.offer(i);
      assert.equal(passed.length, REPORT_BURST, 'the burst passes at once');
      const took = await withWallClockBack(() => {
        throttle.offer(REPORT_BURST);
        return within(() => passed.length === REPORT_BURST + 1);
      });
      assert.ok(took !== undefined, `the report after the burst did not pass within ${GENEROUS_MS} ms`);
    } finally {
      throttle.dispose();
    }
  });

  it('the evaluation scheduler still looks at a busy pane again', async () => {
    let looks = 0;
    const scheduler = new EvaluationScheduler(() => looks++, realClock);
    try {
      scheduler.changed(1);
      assert.ok((await within(() => looks === 1)) !== undefined, 'the first look');
      const took = await withWallClockBack(() => {
        scheduler.changed(1);
        return within(() => looks === 2);
      });
      assert.ok(took !== undefined, `the pane was not looked at again within ${GENEROUS_MS} ms (interval ${EVALUATION_INTERVAL_MS} ms)`);
    } finally {
      scheduler.forget(1);
    }
  });

  it('the output coalescer still parses a quiet pane’s last full read', async () => {
    const parsed: number[] = [];
    const coalescer = new OutputCoalescer((data) => parsed.push(data.length), realClock);
    try {
      coalescer.push(new Uint8Array(FULL_READ_BYTES));
      const took = await withWallClockBack(() => within(() => parsed.length === 1));
      assert.ok(took !== undefined, `the read was not parsed within ${GENEROUS_MS} ms`);
      assert.deepEqual(parsed, [FULL_READ_BYTES]);
    } finally {
      coalescer.dispose();
    }
  });
});
