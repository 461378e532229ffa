/**
 * The bench in smoke mode, the agent scenarios: the agent API, orchestration, MCP, the browser
 * view, turns, rules, a real fleet (three real agent CLIs, or its reason to skip) and the fleet
 * at work, each against its contenders, with their reports.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_SCENARIOS, runSmoke, tmuxInstalled } from './helpers/bench-smoke.js';

describe('bench --smoke, the agent scenarios', () => {
  // The real fleet starts real agent CLIs: about a minute here.
  it('runs every agent scenario against its contenders and puts the fleet at work at the top of the report', { timeout: 170_000 }, () => {
    const run = runSmoke(AGENT_SCENARIOS, 160_000);
    // No flood ran, so there is no flood ratio chart.
    assert.deepEqual(run.files, [`${run.base}.json`, `${run.base}.md`, `${run.base}.svg`]);
    if (tmuxInstalled) assert.match(run.markdown, /herdr ÷ tmux/);
    const glance = run.markdown.indexOf('## At a glance: A fleet at work');
    const firstTable = run.markdown.indexOf(`## ${run.results.scenarios[0]?.title}`);
    assert.ok(glance > 0 && glance < firstTable, 'the fleet at work at the top');
  });
});
