/**
 * Records real agent CLIs at work, for the fleet-at-work bench (bench/corpus/working.ts has
 * the format):
 *
 *   node dist/bench/tools/record-working.js [--agents claude,codex,…] [--out DIR]
 *
 * Each CLI installed by `npm run agents:install` is started in a herdr pane of 120×40, set up
 * as harness/agents/homes.ts sets it up for the scripted model server (harness/model, on
 * 127.0.0.1; nothing reaches the network), and, once idle at its prompt, recorded through
 * `pane.stream {look: false}` (its ack's snapshot, then every chunk with its time) while it works
 * three turns: a question answered after a few seconds of thinking, streamed as markdown; a test
 * run (a shell call its own permission menu asks about, answered through the inbox after a
 * moment, the tool's output, a streamed summary); a longer think and an answer with a code
 * block. The pane's `pane.agent_state_changed` events are kept beside the chunks. Writes
 * DIR/<agent>.jsonl.gz (default bench/fixtures/working).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type RealAgent, cliOf, skipUnlessInstalled } from '../../harness/agents/catalog.js';
import { prepareAgent } from '../../harness/agents/homes.js';
import type { AgentScript } from '../../harness/model/script.js';
import { ModelServer } from '../../harness/model/server.js';
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { WORKING_DIR, type WorkingHeader, parseWorking, workingStats } from '../corpus/working.js';
import { BenchEnvironment } from '../environment.js';

const AGENTS: readonly RealAgent[] = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'pi'];
/** claude's default mode asks a classifier on Anthropic's servers: its own "ask" mode (as in real-fleet). */
const ARGS: Partial<Record<RealAgent, string[]>> = { claude: ['--permission-mode', 'default'] };
/** Idle at the prompt before the first prompt and after the last turn, and between turns. */
const LEAD_MS = 1500;
const BETWEEN_MS = 2500;
const TAIL_MS = 3000;
/** How long a person takes to read a menu before answering it. */
const READ_MENU_MS = 2000;

const ANSWER_BUILD = `## How the build works

The build has **three stages**, each a script in \`package.json\`:

1. \`npm run compile\` runs the TypeScript compiler over \`src/\` into \`dist/\`; type errors stop it here.
2. \`npm run bundle\` takes \`dist/index.js\` and writes one file per entry point, with source maps.
3. \`npm run check\` lints the output and runs the unit tests against the bundle, not the sources.

A few things worth knowing:

- The compiler runs incrementally: \`.tsbuildinfo\` keeps what it saw last time, so a second build takes a fraction of the first.
- \`NODE_ENV=production\` drops the source maps and the debug logging.
- The bundle step reads \`build.config.json\`; a new entry point goes there, not in the script.

If a build fails only on CI, compare the Node versions first: the lock file pins npm 10, and older runners still ship npm 9.`;

const SUMMARY_TESTS = `The suite ran: **23 of 24 tests pass**. The one failure is \`parses a quoted header with a trailing comma\` in \`test/parser.test.js\`: it expects three fields and gets four, because the tokenizer treats the trailing comma as an empty field. Everything else, including the slow integration tests, is green.`;

const ANSWER_FIX = `The failing test is right: a trailing comma in a quoted header should not start a new field. The tokenizer pushes a field on every comma, and only trims empty fields at the end of a *line*, not of a header. Here is the smallest change that fixes it:

\`\`\`js
function splitHeader(line) {
  const fields = [];
  let current = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      fields.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') fields.push(current.trim());
  return fields;
}
\`\`\`

The last line is the fix: the field after the final comma is only kept when it holds something. Run \`npm test\` again and the suite should be green; I would also add a case with two trailing commas, which the old code turned into two empty fields.`;

/** A test runner's output, a line every 120 ms, one failure: the tool's output the CLI shows. */
const RUN_TESTS = `#!/bin/sh
echo '> demo-parser@1.4.2 test'
echo '> node --test test/'
echo
n=0
for name in 'reads an empty file' 'reads a header row' 'splits on commas' 'keeps quoted commas' \\
  'unescapes doubled quotes' 'handles CRLF line ends' 'skips a byte order mark' 'parses numbers when asked' \\
  'keeps leading zeros as text' 'reports the line of a bad quote' 'streams a 10 MB file' 'parses a quoted header with a trailing comma' \\
  'maps rows to objects' 'rejects duplicate headers' 'trims unquoted fields' 'keeps whitespace in quotes' \\
  'reads tab-separated files' 'guesses the separator' 'handles a missing last newline' 'counts rows without parsing' \\
  'parses dates in ISO format' 'leaves bad dates as text' 'writes rows back out' 'round-trips every fixture'; do
  n=$((n + 1))
  sleep 0.12
  if [ "$name" = 'parses a quoted header with a trailing comma' ]; then
    echo "✖ $name (4.1ms)"
    echo '  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:'
    echo "  + actual - expected"
    echo "    [ 'id', 'name', 'email', '' ] !== [ 'id', 'name', 'email' ]"
  else
    echo "✔ $name ($((n * 7 % 23 + 1)).$((n * 3 % 10))ms)"
  fi
done
echo 'ℹ tests 24'
echo 'ℹ pass 23'
echo 'ℹ fail 1'
echo 'ℹ duration_ms 3112.5'
exit 1
`;

/** `rm -rf` in it: codex runs a plain command in its sandbox without asking, and asks for this one like the others. */
const TEST_COMMAND = 'rm -rf ./coverage && sh ./run-tests.sh';

const TURNS = [
  { text: 'How does the build of this project work? [w1]', what: 'a question: 4 s of thinking, then a markdown answer streamed (8 characters every 40 ms)' },
  { text: 'Run the test suite and tell me what fails [w2]', what: `a test run: 1.5 s of thinking, a shell call (${TEST_COMMAND}) its permission menu asks about, answered after 2 s, 24 test lines over 3 s, then a summary streamed` },
  { text: 'Fix the failing test [w3]', what: 'a longer think (8 s), then an answer with a code block streamed (10 characters every 35 ms)' },
];

function script(): AgentScript {
  return {
    turns: [
      { when: '[w1]', steps: [{ stallMs: 4000, then: { say: ANSWER_BUILD, chunkChars: 8, intervalMs: 40 } }] },
      {
        when: '[w2]',
        steps: [
          { stallMs: 1500, then: { say: 'I will clear the old coverage and run the test suite.', shell: TEST_COMMAND } },
          { stallMs: 1500, then: { say: SUMMARY_TESTS, chunkChars: 8, intervalMs: 40 } },
        ],
      },
      { when: '[w3]', steps: [{ stallMs: 8000, then: { say: ANSWER_FIX, chunkChars: 10, intervalMs: 35 } }] },
    ],
  };
}

function writeProject(project: string): void {
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(project, 'test'), { recursive: true });
  mkdirSync(join(project, 'coverage'), { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'demo-parser', version: '1.4.2', scripts: { compile: 'tsc', bundle: 'node build.js', check: 'node --test test/', test: 'sh ./run-tests.sh' } }, null, 2)}\n`);
  writeFileSync(join(project, 'README.md'), '# demo-parser\n\nA small CSV parser.\n');
  writeFileSync(join(project, 'src', 'parser.js'), 'export function splitHeader(line) {\n  return line.split(",");\n}\n');
  writeFileSync(join(project, 'run-tests.sh'), RUN_TESTS);
  chmodSync(join(project, 'run-tests.sh'), 0o755);
}

const { values } = parseArgs({ options: { agents: { type: 'string' }, out: { type: 'string', default: WORKING_DIR } } });
const wanted = (values.agents?.split(',') ?? AGENTS) as RealAgent[];
const out = values.out ?? WORKING_DIR;
mkdirSync(out, { recursive: true });

const environment = new BenchEnvironment();
const model = await ModelServer.start();
const host = await HerdrHost.start(environment);

async function record(agent: RealAgent): Promise<void> {
  const cli = cliOf(agent);
  const key = `sk-herdr-working-${agent}-recording-0000`;
  const dir = join(environment.dir, agent);
  const project = join(dir, 'project');
  const prepared = prepareAgent(agent, { model, dir, project, key, args: ARGS[agent] ?? [] });
  writeProject(project);
  model.script(key, script());
  const started = await host.connection.call('agent.start', { command: prepared.command, cwd: project, env: prepared.env, name: `working-${agent}`, timeout_ms: 120_000 });
  const pane = started.agent.pane_id;
  const target = `working-${agent}`;
  // Settled at its prompt before the recording begins.
  await sleep(LEAD_MS);
  const lines: string[] = [];
  const states = await host.client.subscribe([{ type: 'pane.agent_state_changed', pane_id: pane }]);
  const stream = await host.client.stream(pane, { look: false });
  const t0 = performance.now();
  const at = () => Math.round((performance.now() - t0) * 10) / 10;
  const { cols, rows, snapshot } = stream.started;
  const reading = (async () => {
    for await (const line of stream) {
      if (line.event === 'pane.output') lines.push(JSON.stringify({ t: at(), b: line.data.bytes }));
      else if (line.event === 'pane.resync' || line.event === 'pane.resized') throw new Error(`${agent}: ${line.event} while recording`);
      else if (line.event === 'pane.exited') break;
    }
  })();
  const watching = (async () => {
    for await (const line of states) {
      if (line.event === 'pane.agent_state_changed') lines.push(JSON.stringify({ t: at(), state: line.data.state, status: line.data.agent_status }));
    }
  })();
  const menus: string[] = [];
  try {
    await sleep(LEAD_MS);
    // 1: a question, answered.
    await host.connection.call('agent.prompt', { target, text: TURNS[0]?.text ?? '', wait: { timeout_ms: 120_000 } });
    await sleep(BETWEEN_MS);
    // 2: a test run behind the CLI's own permission menu, answered through the inbox.
    const asked = await host.connection.call('agent.prompt', { target, text: TURNS[1]?.text ?? '', wait: { until: ['blocked', 'done'], timeout_ms: 120_000 } });
    if (asked.agent.agent_status === 'blocked') {
      await sleep(READ_MENU_MS);
      const { approvals } = await host.connection.call('approvals.list', {});
      const entry = approvals.find((candidate) => candidate.pane_id === pane);
      const option = entry?.options.find((candidate) => /^(yes|allow)/i.test(candidate.label)) ?? entry?.options[0];
      if (!entry || !option) throw new Error(`${agent}: blocked, but nothing in the inbox`);
      menus.push(`${entry.question ?? ''} → ${option.label}`);
      await host.connection.call('approvals.answer', { pane_id: pane, option: option.key, question_hash: entry.question_hash });
    } else {
      menus.push('no menu: the CLI ran the tool without asking');
    }
    await host.connection.call('agent.wait', { target, until: ['done'], timeout_ms: 120_000 });
    await sleep(BETWEEN_MS);
    // 3: a long think, then code.
    await host.connection.call('agent.prompt', { target, text: TURNS[2]?.text ?? '', wait: { timeout_ms: 120_000 } });
    await sleep(TAIL_MS);
  } finally {
    stream.close();
    states.close();
    await Promise.allSettled([reading, watching]);
    await host.connection.call('pane.close', { pane_id: pane }).catch(() => undefined);
  }
  const header: WorkingHeader = {
    agent,
    package: cli.package,
    version: cli.version,
    cols,
    rows,
    recorded: new Date().toISOString().slice(0, 10),
    duration_ms: Math.round(at()),
    turns: TURNS.map((turn, i) => `${turn.text}: ${turn.what}${i === 1 ? ` (${menus.join('; ')})` : ''}`),
    snapshot: Buffer.from(snapshot).toString('base64'),
  };
  // In time order (the two readers interleave, each in order).
  const body = lines.map((line) => ({ line, t: (JSON.parse(line) as { t: number }).t })).sort((a, b) => a.t - b.t).map(({ line }) => line);
  const text = `${JSON.stringify(header)}\n${body.join('\n')}\n`;
  const path = join(out, `${agent}.jsonl.gz`);
  writeFileSync(path, gzipSync(text, { level: 9 }));
  const stats = workingStats(parseWorking(agent, text));
  const base = performance.timeOrigin + t0;
  const requests = model.requests.filter((request) => request.key === key).map((request) => `${request.kind} ${Math.round(request.receivedAt - base)}–${Math.round((request.lastByteAt ?? NaN) - base)} ms`);
  console.log(`${agent}: model requests: ${requests.join(', ')}`);
  console.log(`${agent} ${cli.version}: ${path}: ${JSON.stringify(stats)}`);
}

try {
  for (const agent of wanted) {
    const skip = skipUnlessInstalled(cliOf(agent));
    if (skip !== false) {
      console.error(`${agent}: skipped: ${skip}`);
      continue;
    }
    try {
      await record(agent);
    } catch (error) {
      console.error(`${agent}: not recorded: ${String(error)}`);
    }
  }
} finally {
  await host.stop();
  await model.close();
  environment.dispose();
}
