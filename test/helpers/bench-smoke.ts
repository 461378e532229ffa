/**
 * The bench in smoke mode, shared by the two smoke test files. The run is split in two halves
 * because `--test-timeout` bounds each test file: the whole smoke run takes about as long as
 * that bound on a 2-core machine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumMissing } from '../../harness/browser.js';
import { REPO_ROOT, tempDir } from '../../harness/server.js';
import type { BenchResults } from '../../bench/report/results.js';

export const BENCH_RUN = join(REPO_ROOT, 'dist', 'bench', 'run.js');
export const tmuxInstalled = spawnSync('tmux', ['-V']).status === 0;

/** The server's own scenarios: floods, latency under load, clients, scale, the views. */
export const SERVER_SCENARIOS = ['flood-10', 'flood-100', 'flood-300', 'round-trip', 'responsiveness', 'clients', 'hooks', 'event-latency', 'scale', 'stream', 'watch', 'snapshot', 'remote'];
/** The agent scenarios: agent API, orchestration, MCP, the browser, turns, rules, real fleets. */
export const AGENT_SCENARIOS = ['agents', 'orchestration', 'mcp', 'web', 'turns', 'rules', 'real-fleet', 'fleet-at-work'];

export interface SmokeRun {
  results: BenchResults;
  /** The files the run wrote, sorted. */
  files: string[];
  base: string;
  markdown: string;
  svg: string;
  stderr: string;
}

/**
 * Runs `bench --smoke --only <ids>` into a temporary folder, checks that every scenario has a
 * finite first figure for each of its contenders and that the markdown and svg came out, and
 * hands back what was written for the caller's own checks.
 */
export function runSmoke(ids: readonly string[], timeoutMs: number): SmokeRun {
  const out = tempDir('herdr-bench-smoke-');
  try {
    const run = spawnSync(process.execPath, [BENCH_RUN, '--smoke', '--only', ...ids, '--out', out], { encoding: 'utf8', timeout: timeoutMs });
    assert.equal(run.status, 0, `bench exited ${run.status}:\n${run.stderr.slice(-3000)}`);
    const files = readdirSync(out).sort();
    const json = files.find((file) => file.endsWith('-smoke.json'));
    assert.ok(json, `results json in ${files.join(', ')}`);
    const base = json.slice(0, -'.json'.length);
    const results = JSON.parse(readFileSync(join(out, json), 'utf8')) as BenchResults;
    assert.deepEqual(results.scenarios.map((scenario) => scenario.id), [...ids]);
    for (const scenario of results.scenarios) checkFigures(scenario);
    const markdown = readFileSync(join(out, `${base}.md`), 'utf8');
    for (const scenario of results.scenarios) assert.ok(markdown.includes(`## ${scenario.title}`), `markdown has ${scenario.title}`);
    const svg = readFileSync(join(out, `${base}.svg`), 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok((svg.match(/<rect /g) ?? []).length > 20, 'the chart has bars');
    return { results, files, base, markdown, svg, stderr: run.stderr };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

type Scenario = BenchResults['scenarios'][number];

/** Who each scenario is measured against (the peer only where it has the feature). */
function contendersOf(id: string): string[] {
  const withPeer = ['herdr', ...(tmuxInstalled ? ['tmux'] : [])];
  if (id === 'agents') return ['herdr', 'herdr-1'];
  // Orchestration, the real fleet and the fleet at work: herdr against tmux.
  if (['orchestration', 'real-fleet', 'fleet-at-work'].includes(id)) return withPeer;
  if (id === 'clients') return ['herdr', 'ceiling'];
  // The watch view, session snapshots, ssh transport, herdr mcp, herdr web, turns and rules are herdr's alone.
  if (['watch', 'snapshot', 'remote', 'mcp', 'web', 'turns', 'rules'].includes(id)) return ['herdr'];
  return ['herdr', 'herdr-1', ...(tmuxInstalled ? ['tmux'] : [])];
}

function checkFigures(scenario: Scenario): void {
  // Without Chromium the page cannot be measured: the scenario says why instead.
  if (scenario.id === 'web' && chromiumMissing()) {
    assert.match(scenario.method, /^skipped: /);
    return;
  }
  // Without the agent CLIs (npm run agents:install could not reach the registry) the fleet says why instead.
  if (scenario.id === 'real-fleet' && scenario.metrics.length === 0) {
    assert.match(scenario.method, /^Skipped: fewer than three of /);
    return;
  }
  const [first] = scenario.metrics;
  assert.ok(first, `${scenario.id} has figures`);
  // The library's figures (the first) are herdr's alone; its CLI rows have the peer too.
  for (const contender of contendersOf(scenario.id)) {
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
