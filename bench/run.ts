/**
 * `npm run bench`: every scenario against our server (default shards and
 * `--workers 1`), tmux and the raw PTY ceiling, interleaved, in one clean
 * environment; prints progress and tables, writes JSON, markdown and SVG to
 * bench/results/ (with floods, also their herdr ÷ tmux as `<base>-ratios.svg`).
 * `--socket PATH` drives a running server instead.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { REPO_ROOT } from '../harness/server.js';
import type { HostName } from './contenders/host.js';
import { tmuxVersion } from './contenders/tmux.js';
import { BenchEnvironment } from './environment.js';
import { svgChart } from './report/chart.js';
import { markdownReport, scenarioTable } from './report/markdown.js';
import { ratioChart } from './report/ratio-chart.js';
import type { BenchResults, MachineInfo, ScenarioResult } from './report/results.js';
import type { BenchContext, Mode } from './scenarios/context.js';
import { agentsScenario } from './scenarios/agents.js';
import { clientsScenario } from './scenarios/clients.js';
import { eventLatencyScenario } from './scenarios/event-latency.js';
import { floodScenario } from './scenarios/flood.js';
import { hooksScenario } from './scenarios/hooks.js';
import { mcpScenario } from './scenarios/mcp.js';
import { orchestrationScenario } from './scenarios/orchestration.js';
import { responsivenessScenario } from './scenarios/responsiveness.js';
import { roundTripScenario } from './scenarios/round-trip.js';
import { scaleScenario } from './scenarios/scale.js';
import { remoteScenario } from './scenarios/remote.js';
import { snapshotScenario } from './scenarios/snapshot.js';
import { streamScenario } from './scenarios/stream.js';
import { watchScenario } from './scenarios/watch.js';
import { webScenario } from './scenarios/web.js';
import { turnsScenario } from './scenarios/turns.js';
import { rulesScenario } from './scenarios/rules.js';
import { realFleetScenario } from './scenarios/real-fleet.js';
import { fleetAtWorkScenario } from './scenarios/fleet-at-work.js';

/** `quick: false`: left out of --quick unless asked for with --only. */
interface Scenario {
  id: string;
  quick?: false;
  run(context: BenchContext): Promise<ScenarioResult>;
}

const SCENARIOS: Scenario[] = [
  { id: 'flood-10', run: (context) => floodScenario(context, 'flood-10', context.mode === 'smoke' ? 2 : 10) },
  { id: 'flood-100', run: (context) => floodScenario(context, 'flood-100', context.mode === 'smoke' ? 4 : 100) },
  { id: 'flood-300', run: (context) => floodScenario(context, 'flood-300', context.mode === 'smoke' ? 6 : 300) },
  { id: 'round-trip', run: roundTripScenario },
  { id: 'responsiveness', run: responsivenessScenario },
  { id: 'clients', run: clientsScenario },
  { id: 'hooks', run: hooksScenario },
  { id: 'event-latency', run: eventLatencyScenario },
  { id: 'scale', run: scaleScenario },
  { id: 'stream', run: streamScenario },
  { id: 'watch', run: watchScenario },
  { id: 'snapshot', run: snapshotScenario },
  { id: 'remote', run: remoteScenario },
  { id: 'agents', quick: false, run: agentsScenario },
  { id: 'orchestration', run: orchestrationScenario },
  { id: 'mcp', run: mcpScenario },
  { id: 'web', run: webScenario },
  { id: 'turns', run: turnsScenario },
  { id: 'rules', run: rulesScenario },
  { id: 'real-fleet', run: realFleetScenario },
  { id: 'fleet-at-work', run: fleetAtWorkScenario },
];

interface Options {
  quick?: boolean;
  smoke?: boolean;
  socket?: string;
  only?: string[];
  hosts?: HostName[];
  ceiling: boolean;
  out: string;
  check?: boolean;
  cpuProf?: string;
}

const program = new Command('bench')
  .description('herdr against tmux and the raw PTY ceiling, same machine, same run')
  .option('--quick', 'smaller inputs and fewer repetitions (under 3 minutes)')
  .option('--smoke', 'a few panes, seconds; checks the bench still runs, not the figures')
  .option('--socket <path>', 'drive an already running herdr server (a load generator); no peers')
  .option('--only <ids...>', `scenarios to run, by id or prefix: ${SCENARIOS.map((s) => s.id).join(', ')}`)
  .addOption(new Option('--hosts <names...>', 'hosts to compare').choices(['herdr', 'herdr-1', 'tmux']))
  .option('--no-ceiling', 'skip the raw PTY ceiling')
  .option('--out <dir>', 'where results are written', join(REPO_ROOT, 'bench', 'results'))
  .option('--check', 'exit 1 when a target is missed')
  .option('--cpu-prof <dir>', 'herdr servers the bench starts write a CPU profile per thread into DIR (node --cpu-prof)')
  .parse();
const options = program.opts<Options>();

const mode: Mode = options.smoke ? 'smoke' : options.quick ? 'quick' : 'full';
const tmux = await tmuxVersion();
const started = performance.now();
const elapsed = () => `[${String(Math.round((performance.now() - started) / 1000)).padStart(4)} s]`;
const hostNames: HostName[] = options.socket
  ? ['herdr']
  : (options.hosts ?? ['herdr', 'herdr-1', 'tmux']).filter((name) => name !== 'tmux' || tmux !== undefined);
if (!options.socket && !tmux) console.error('tmux is not installed (apt-get install tmux): no peer figures this run');

const environment = new BenchEnvironment();
const context: BenchContext = {
  mode,
  environment,
  hostNames,
  socket: options.socket,
  ceiling: options.ceiling && !options.socket,
  resultsDir: options.out,
  herdrNodeArgs: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] : [],
  progress: (message) => console.error(`${elapsed()} ${message}`),
};
// A whole id picks that scenario alone (flood-10 is not flood-100); anything else is a prefix (flood).
const picks = (id: string, scenario: Scenario) => (SCENARIOS.some((s) => s.id === id) ? scenario.id === id : scenario.id.startsWith(id));
const selected = SCENARIOS.filter((scenario) =>
  options.only ? options.only.some((id) => picks(id, scenario)) : mode !== 'quick' || scenario.quick !== false,
);
if (selected.length === 0) program.error(`no scenario matches ${options.only?.join(', ')}`);

const machine: MachineInfo = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  kernel: release(),
  node: process.version,
  tmux,
};
console.error(`${elapsed()} ${mode} run: ${selected.map((s) => s.id).join(', ')}; hosts ${hostNames.join(', ')}${context.ceiling ? ', ceiling' : ''}`);

const scenarios: ScenarioResult[] = [];
try {
  for (const scenario of selected) {
    context.progress(`${scenario.id}: starting`);
    const result = await scenario.run(context);
    scenarios.push(result);
    console.log(`\n## ${result.title}\n\n${scenarioTable(result)}`);
    for (const target of result.targets) console.log(`  ${target.met ? 'met   ' : 'MISSED'} ${target.what}: ${target.measured} (target ${target.target})`);
  }
} finally {
  environment.dispose();
}

const date = new Date().toISOString().slice(0, 10);
const results: BenchResults = { date, mode, machine, socket: options.socket, durationSeconds: (performance.now() - started) / 1000, scenarios };
const base = join(options.out, mode === 'full' ? date : `${date}-${mode}`);
mkdirSync(options.out, { recursive: true });
writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${base}.md`, markdownReport(results));
writeFileSync(`${base}.svg`, svgChart(results));
// The floods' herdr ÷ tmux on its own too, for the README.
const ratios = ratioChart(results);
if (ratios) writeFileSync(`${base}-ratios.svg`, ratios);
console.error(`${elapsed()} wrote ${base}.json, .md and .svg${ratios ? ` and ${base}-ratios.svg` : ''}`);
const missed = scenarios.flatMap((s) => s.targets).filter((t) => !t.met);
if (options.check && missed.length > 0) process.exitCode = 1;
