/**
 * The bench in smoke mode (a few panes, seconds), the server's scenarios: every one still runs
 * against every contender and writes its reports. No figure is checked against a target here;
 * timing belongs to `npm run bench`. The agent scenarios are in bench-smoke-agents.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { AGENT_SCENARIOS, BENCH_RUN, SERVER_SCENARIOS, runSmoke, tmuxInstalled } from './helpers/bench-smoke.js';

describe('bench --smoke, the server scenarios', () => {
  it('the two smoke halves together are every scenario the bench has', () => {
    const help = spawnSync(process.execPath, [BENCH_RUN, '--help'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    const listed = /scenarios to run, by id or prefix: ([\w, -]+?) --/.exec(help)?.[1]?.split(', ');
    assert.deepEqual(listed, [...SERVER_SCENARIOS, ...AGENT_SCENARIOS]);
  });

  it('runs floods, latency, clients, scale and the views against every contender and writes json, markdown and svg', { timeout: 170_000 }, () => {
    const run = runSmoke(SERVER_SCENARIOS, 160_000);
    assert.match(run.stderr, /flood-100: starting/, 'progress is printed while it runs');
    // The floods' herdr ÷ tmux is drawn on its own too (without tmux there is none).
    assert.deepEqual(run.files, [...(tmuxInstalled ? [`${run.base}-ratios.svg`] : []), `${run.base}.json`, `${run.base}.md`, `${run.base}.svg`]);
    if (tmuxInstalled) assert.match(run.markdown, /herdr ÷ tmux/);
  });
});
