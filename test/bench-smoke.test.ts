/**
 * The bench in smoke mode (a few panes, seconds): every scenario still runs
 * against every contender and writes its reports. No figure is
 * checked against a target here; timing belongs to `npm run bench`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chromiumMissing } from '../harness/browser.js';
import { REPO_ROOT, tempDir } from '../harness/server.js';
import type { BenchResults } from '../bench/report/results.js';

const RUN = join(REPO_ROOT, 'dist', 'bench', 'run.js');
const tmuxInstalled = spawnSync('tmux', ['-V']).status === 0;

describe('bench --smoke', () => {
  // The real fleet starts real agent CLIs: the run takes two minutes and more here.
  it('runs every scenario against every contender and writes json, markdown and svg', { timeout: 300_000 }, () => {
    const out = tempDir('herdr-bench-smoke-');
    try {
      const run = spawnSync(process.execPath, [RUN, '--smoke', '--out', out], { encoding: 'utf8', timeout: 290_000 });
      assert.equal(run.status, 0, `bench exited ${run.status}:\n${run.stderr.slice(-3000)}`);
      assert.match(run.stderr, /flood-100: starting/, 'progress is printed while it runs');

      const files = readdirSync(out).sort();
      const json = files.find((file) => file.endsWith('-smoke.json'));
      assert.ok(json, `results json in ${files.join(', ')}`);
      const base = json.slice(0, -'.json'.length);
      // The floods' herdr ÷ tmux is drawn on its own too (without tmux there is none).
      assert.deepEqual(files, [...(tmuxInstalled ? [`${base}-ratios.svg`] : []), `${base}.json`, `${base}.md`, `${base}.svg`]);

      const results = JSON.parse(readFileSync(join(out, json), 'utf8')) as BenchResults;
      const ids = results.scenarios.map((scenario) => scenario.id);
      assert.deepEqual(ids, ['flood-10', 'flood-100', 'flood-300', 'round-trip', 'responsiveness', 'clients', 'hooks', 'event-latency', 'scale', 'stream', 'watch', 'snapshot', 'remote', 'agents', 'orchestration', 'mcp', 'web', 'turns', 'rules', 'real-fleet', 'fleet-at-work']);
      const expected = ['herdr', 'herdr-1', ...(tmuxInstalled ? ['tmux'] : [])] as const;
      for (const scenario of results.scenarios) {
        // Without Chromium the page cannot be measured: the scenario says why instead.
        if (scenario.id === 'web' && chromiumMissing()) {
          assert.match(scenario.method, /^skipped: /);
          continue;
        }
        // Without the agent CLIs (npm run agents:install could not reach the registry) the fleet says why instead.
        if (scenario.id === 'real-fleet' && scenario.metrics.length === 0) {
          assert.match(scenario.method, /^Skipped: fewer than three of /);
          continue;
        }
        const [first] = scenario.metrics;
        assert.ok(first, `${scenario.id} has figures`);
        // The library's figures (the first) are herdr's alone; its CLI rows have the peer too.
        // The watch view, session snapshots, ssh transport, herdr mcp, herdr web, turns and rules are herdr's alone (no peer has them).
        // Orchestration, the real fleet and the fleet at work: herdr against tmux (orchestration's composed variant has figures of its own name).
        const orchestration = ['herdr', ...(tmuxInstalled ? ['tmux'] : [])];
        const contenders = scenario.id === 'agents' ? ['herdr', 'herdr-1'] : ['orchestration', 'real-fleet', 'fleet-at-work'].includes(scenario.id) ? orchestration : scenario.id === 'clients' ? ['herdr', 'ceiling'] : ['watch', 'snapshot', 'remote', 'mcp', 'web', 'turns', 'rules'].includes(scenario.id) ? ['herdr'] : expected;
        for (const contender of contenders) {
          const value = first.values[contender as keyof typeof first.values];
          assert.ok(value !== undefined && Number.isFinite(value), `${scenario.id}: ${first.name} for ${contender} is ${value}`);
        }
        if (scenario.id === 'clients') {
          const cli = scenario.metrics.find((metric) => metric.name.startsWith('CLI'));
          for (const contender of ['herdr', ...(tmuxInstalled ? ['tmux' as const] : []), 'ceiling'] as const) {
            assert.ok(Number.isFinite(cli?.values[contender]), `clients: ${cli?.name} for ${contender}`);
          }
        }
        if (scenario.id.startsWith('flood') || scenario.id === 'hooks' || scenario.id === 'stream') {
          assert.ok((first.values.ceiling ?? 0) > 0, `${scenario.id} measured the ceiling`);
        }
        if (scenario.id.startsWith('flood')) {
          assert.ok(scenario.metrics.some((metric) => (metric.values.parse ?? 0) > 0), `${scenario.id} measured the parse floor`);
        }
      }

      const markdown = readFileSync(join(out, `${base}.md`), 'utf8');
      for (const scenario of results.scenarios) assert.ok(markdown.includes(`## ${scenario.title}`), `markdown has ${scenario.title}`);
      if (tmuxInstalled) assert.match(markdown, /herdr ÷ tmux/);
      // The fleet at work is the report's first table.
      assert.ok(markdown.indexOf('## At a glance: A fleet at work') > 0 && markdown.indexOf('## At a glance') < markdown.indexOf('## Flood'), 'the fleet at work at the top');
      const svg = readFileSync(join(out, `${base}.svg`), 'utf8');
      assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.ok((svg.match(/<rect /g) ?? []).length > 20, 'the chart has bars');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('soak, in brief', () => {
  it('runs the fleet and its churning clients for 20 s with no error, and says so per minute', () => {
    const soak = join(REPO_ROOT, 'dist', 'bench', 'soak.js');
    const run = spawnSync(process.execPath, [soak, '--minutes', '0.35', '--panes', '24'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, `soak exited ${run.status}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
    assert.match(run.stdout, /^minute  1  errors   0  probes +\d+ +p50 +[\d.]+ ms +p99 +[\d.]+ ms/m);
    assert.match(run.stdout, /soak passed: 1 minute\(s\), no errors/);
  });
});
