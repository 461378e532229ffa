/**
 * A fleet of real agent CLIs (issue #36): N agents of several vendors (Claude Code, codex, pi,
 * opencode, round-robin, each configured by harness/agents/homes.ts) run scripted turns against
 * the scripted model server (streamed answers; in a fifth of the turns a shell tool call whose
 * permission menu is answered through the inbox), prompted by 5 clients that send every agent's
 * prompts at once with client keys and retry a third of them. Beside it the same fleet in tmux,
 * driven as a script would drive it there: send-keys for the text, a pause, Enter; capture-pane
 * polling to see a turn end and a menu to answer; the next prompt only after the turn (it has no
 * queue and no key, so no retries).
 * Reported: prompts that reached the model exactly once and in order (the model server counts);
 * the model's last byte → herdr's `pane.turn_finished` / the tmux script seeing the answer;
 * a menu on the screen → `blocked` (the inbox lists it); server CPU per turn and per working agent.
 * PROF_DIR=dir writes the herdr server's CPU profiles (one per thread) to dir/<run>.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HerdrClient } from '../../src/client/client.js';
import { type RealAgent, cliOf, skipUnlessInstalled } from '../../harness/agents/catalog.js';
import { type PreparedAgent, prepareAgent } from '../../harness/agents/homes.js';
import type { AgentScript, ScriptedTurn } from '../../harness/model/script.js';
import { ModelServer } from '../../harness/model/server.js';
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { TmuxHost } from '../contenders/tmux.js';
import { Prng } from '../corpus/prng.js';
import { median, percentile, pool } from '../measure.js';
import { type Metric, type ScenarioResult, formatFigure, measured } from '../report/results.js';
import { type BenchContext, SampleSet, rotated, sized } from './context.js';

/** The vendors of the fleet, round-robin: the lighter CLIs (native, or one node process). */
const KINDS: readonly RealAgent[] = ['claude', 'codex', 'pi', 'opencode'];
const ARGS: Partial<Record<RealAgent, string[]>> = { claude: ['--permission-mode', 'default'] };
const TOOL_EVERY = 5;
const CLIENTS = 5;
const RETRY_PERCENT = 33;
const ANSWER_ATTEMPTS = 20;
const ANSWER_RETRY_MS = 250;
const STRAY_GRACE_MS = 3000;
const ANSWER = 'a streamed answer of a few sentences, the way a model answers a fleet of agents at work on a codebase, ';

interface PlannedTurn {
  id: string;
  tool: boolean;
  text: string;
}

/** Each agent's prompts: a tool call in every TOOL_EVERY-th turn of the fleet, the rest streamed answers. */
function plan(agentCount: number, turns: number): PlannedTurn[][] {
  return Array.from({ length: agentCount }, (_, a) =>
    Array.from({ length: turns }, (_, t) => {
      const id = `a${a}t${t}`;
      const tool = (a + t) % TOOL_EVERY === 0;
      return { id, tool, text: tool ? `Clean up the scratch folder [${id}]` : `Answer the question [${id}]` };
    }),
  );
}

/** The model's side of an agent's plan: a streamed answer, or a call of its shell tool then a short answer. */
function scriptOf(turns: readonly PlannedTurn[]): AgentScript {
  const scripted: ScriptedTurn[] = turns.map((turn) =>
    turn.tool
      ? { when: `[${turn.id}]`, steps: [{ say: 'Cleaning it up.', shell: `rm -rf ./scratch-${turn.id}` }, { say: `Cleaned. END-${turn.id}` }] }
      : { when: `[${turn.id}]`, steps: [{ say: `${ANSWER.repeat(2)}END-${turn.id}`, chunkChars: 8, intervalMs: 40 }] },
  );
  return { turns: scripted };
}

interface FleetAgent {
  kind: RealAgent;
  key: string;
  prepared: PreparedAgent;
  project: string;
  turns: PlannedTurn[];
}

function fleet(kinds: readonly RealAgent[], model: ModelServer, dir: string, run: string, turns: PlannedTurn[][]): FleetAgent[] {
  return turns.map((agentTurns, i) => {
    const kind = kinds[i % kinds.length] as RealAgent;
    const key = `sk-herdr-fleet-${run}-${i}-0000`;
    const project = join(dir, run, `agent-${i}`, 'project');
    const prepared = prepareAgent(kind, { model, dir: join(dir, run, `agent-${i}`), project, key, args: ARGS[kind] ?? [] });
    for (const turn of agentTurns) if (turn.tool) mkdirSync(join(project, `scratch-${turn.id}`), { recursive: true });
    model.script(key, scriptOf(agentTurns));
    return { kind, key, prepared, project, turns: agentTurns };
  });
}

/** Prompts that reached the model exactly once each, in the planned order, as a share of all. */
function exactlyOnce(model: ModelServer, agents: readonly FleetAgent[]): number {
  let good = 0;
  let all = 0;
  for (const agent of agents) {
    const seen = model.prompts(agent.key).flatMap((text) => agent.turns.filter((turn) => text.includes(`[${turn.id}]`)).map((turn) => turn.id));
    const planned = agent.turns.map((turn) => turn.id);
    all += planned.length;
    planned.forEach((id, index) => {
      if (seen.filter((other) => other === id).length === 1 && seen.indexOf(id) === index) good++;
    });
  }
  return all === 0 ? NaN : (good / all) * 100;
}

/** The time the model's answer to `turn` ended (its last request of the turn), ms since the epoch. */
function lastByte(model: ModelServer, agent: FleetAgent, turn: PlannedTurn): number | undefined {
  const requests = model.turnRequests(agent.key);
  const first = requests.findIndex((request) => request.newUserText?.includes(`[${turn.id}]`));
  if (first < 0) return undefined;
  const later = requests.slice(first + 1).findIndex((request) => request.newUserText !== undefined);
  const ofTurn = requests.slice(first, later < 0 ? undefined : first + 1 + later);
  return ofTurn.at(-1)?.lastByteAt;
}

/** Processes still running with a HOME under `root` (an agent's daemon after its pane closed), each ended. */
function endStrays(root: string): number {
  let strays = 0;
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 0x39 || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.split('\0').some((variable) => variable.startsWith(`HOME=${root}/`))) continue;
    strays++;
    try {
      process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return strays;
}

/** The model's last byte of each answer (not tool turns) → when the contender saw the turn end, in all and by CLI. */
function endLatencies(model: ModelServer, agents: readonly FleetAgent[], seenAt: (turn: PlannedTurn) => number | undefined): Pick<FleetFigures, 'endLatencies' | 'endByKind'> {
  const endByKind: Partial<Record<RealAgent, number[]>> = {};
  for (const agent of agents) {
    for (const turn of agent.turns) {
      const end = lastByte(model, agent, turn);
      const seen = seenAt(turn);
      if (turn.tool || end === undefined || seen === undefined) continue;
      (endByKind[agent.kind] ??= []).push(seen - end);
    }
  }
  return { endLatencies: Object.values(endByKind).flat(), endByKind };
}

interface FleetFigures {
  exact: number;
  endLatencies: number[];
  endByKind: Partial<Record<RealAgent, number[]>>;
  /** herdr: the answer's end mark on the screen → pane.turn_finished, by CLI (its own share of the end). */
  afterAnswerByKind?: Partial<Record<RealAgent, number[]>>;
  menuLatencies: number[];
  cpuSeconds: number;
  seconds: number;
  turns: number;
  /** herdr: how its turns ended (`done`, `blocked`, `stalled`, …), and the inbox's refusals the autopilot retried. */
  outcomes?: Record<string, number>;
  refusals?: string[];
  /** Agent processes still running a moment after the host closed the panes. */
  strays: number;
}

async function herdrFleet(context: BenchContext, model: ModelServer, run: string, kinds: readonly RealAgent[], turns: PlannedTurn[][]): Promise<Omit<FleetFigures, 'strays'>> {
  // PROF_DIR=dir: the server's --cpu-prof profiles (one per thread) go to dir/<run>.
  const profile = process.env.PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.PROF_DIR, run)}`] : [];
  const host = await HerdrHost.start(context.environment, undefined, profile);
  try {
    const agents = fleet(kinds, model, context.environment.dir, run, turns);
    const names = agents.map((_, i) => `fleet-${i}`);
    context.progress(`real-fleet: herdr: starting ${agents.length} agents (${kinds.join(', ')})`);
    await pool(agents, 4, async (agent, i) => {
      await host.connection.call('agent.start', { command: agent.prepared.command, cwd: agent.project, env: agent.prepared.env, name: names[i], timeout_ms: 180_000 });
    });
    const finishedAt = new Map<string, number>();
    const blockedAt = new Map<string, number[]>();
    const menuSeenAt = new Map<string, number[]>();
    const events = await host.client.subscribe([{ type: 'pane.turn_finished' }, { type: 'pane.turn_started' }, { type: 'pane.agent_state_changed', state: 'blocked' }]);
    // When each answer's end mark was on the screen, as the server's own matcher saw it (one wait per started turn).
    const answerSeenAt = new Map<string, number>();
    const keyOf = new Map<string, string>();
    const paneOf = new Map<string, string>();
    for (const name of names) paneOf.set((await host.connection.call('agent.get', { target: name })).agent.pane_id, name);
    // A menu on the screen, as the server's own output matchers see it.
    const menus = await host.client.subscribe(
      [...paneOf.keys()].map((pane_id) => ({ type: 'pane.output_matched' as const, pane_id, source: 'visible' as const, match: { type: 'regex' as const, value: '(❯|›|→) (1\\. )?(Yes|Allow)|Allow once' } })),
    );
    void (async () => {
      for await (const line of menus) if (line.event === 'pane.output_matched') menuSeenAt.set(line.data.pane_id, [...(menuSeenAt.get(line.data.pane_id) ?? []), Date.now()]);
    })();
    const answering = new Set<string>();
    const refusals: string[] = [];
    const outcomes: Record<string, number> = {};
    const outcomeOf = new Map<string, string>();
    void (async () => {
      for await (const line of events) {
        if (line.event === 'pane.turn_started') {
          const key = keyOf.get(line.data.turn_id);
          const mark = { type: 'substring' as const, value: `END-${key}` };
          if (key !== undefined) {
            void host.connection.call('pane.wait_for_output', { pane_id: line.data.pane_id, source: 'visible', match: mark, timeout_ms: 600_000 }).then(
              () => answerSeenAt.set(key, Date.now()),
              () => undefined,
            );
          }
        }
        if (line.event === 'pane.turn_finished') {
          finishedAt.set(line.data.turn_id, Date.now());
          outcomes[line.data.outcome] = (outcomes[line.data.outcome] ?? 0) + 1;
          outcomeOf.set(line.data.turn_id, line.data.outcome);
        }
        if (line.event !== 'pane.agent_state_changed') continue;
        const pane = line.data.pane_id;
        blockedAt.set(pane, [...(blockedAt.get(pane) ?? []), Date.now()]);
        if (answering.has(pane)) continue;
        answering.add(pane);
        // The inbox, as an autopilot reads it: the agent's menu answered with its first yes, tried
        // again while the agent is still blocked (a refusal says the menu moved: list again).
        void (async () => {
          try {
            for (let attempt = 0; attempt < ANSWER_ATTEMPTS; attempt++) {
              const { approvals } = await host.connection.call('approvals.list', {});
              const entry = approvals.find((candidate) => candidate.pane_id === pane);
              if (!entry) return; // not blocked any more
              const option = entry.options.find((candidate) => /^(yes|allow once)/i.test(candidate.label)) ?? entry.options[0];
              const answered = option && (await host.connection.call('approvals.answer', { pane_id: pane, option: option.key, question_hash: entry.question_hash }).then(() => true, (error: unknown) => {
                refusals.push(String(error));
                return false;
              }));
              if (answered) return;
              await sleep(ANSWER_RETRY_MS);
            }
          } finally {
            answering.delete(pane);
          }
        })();
      }
    })();

    const cpuBefore = await host.cpuSeconds();
    const began = performance.now();
    const clients = Array.from({ length: CLIENTS }, () => new HerdrClient({ socketPath: host.socketPath }));
    const prng = new Prng(0x36_c11e);
    const turnIds = new Map<string, string>();
    await Promise.all(
      clients.map((client, c) =>
        Promise.all(
          agents.map(async (agent, i) => {
            if (i % CLIENTS !== c) return;
            for (const turn of agent.turns) {
              const send = () => client.agent.prompt({ target: names[i] ?? '', text: turn.text, key: turn.id });
              const { turn: receipt } = await send();
              turnIds.set(turn.id, receipt.turn_id);
              keyOf.set(receipt.turn_id, turn.id);
              if (prng.chance(RETRY_PERCENT)) await send();
            }
          }),
        ),
      ),
    );
    const planned = agents.reduce((sum, agent) => sum + agent.turns.length, 0);
    // Every turn ended (a tool turn ends blocked at its menu), and every answer reached its agent's screen.
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const ended = [...turnIds.values()].filter((id) => finishedAt.has(id)).length;
      const answered = agents.every((agent) => agent.turns.every((turn) => lastByte(model, agent, turn) !== undefined));
      if (ended === planned && answered) break;
      await sleep(200);
    }
    for (const name of names) await host.connection.call('agent.wait', { target: name, until: ['idle', 'done'], timeout_ms: 120_000 }).catch(() => undefined);
    const seconds = (performance.now() - began) / 1000;
    const cpuSeconds = (await host.cpuSeconds()) - cpuBefore;
    for (const client of clients) client.close();
    events.close();
    menus.close();

    const ends = endLatencies(model, agents, (turn) => finishedAt.get(turnIds.get(turn.id) ?? ''));
    const afterAnswerByKind: Partial<Record<RealAgent, number[]>> = {};
    for (const agent of agents) {
      for (const turn of agent.turns) {
        const seen = answerSeenAt.get(turn.id);
        const finished = finishedAt.get(turnIds.get(turn.id) ?? '');
        if (!turn.tool && seen !== undefined && finished !== undefined) (afterAnswerByKind[agent.kind] ??= []).push(Math.max(0, finished - seen));
      }
    }
    const menuLatencies = [...blockedAt.entries()].flatMap(([pane, times]) =>
      times.flatMap((blocked) => {
        const seen = (menuSeenAt.get(pane) ?? []).filter((at) => at <= blocked + 5000).at(-1);
        return seen !== undefined && blocked - seen < 5000 ? [Math.max(0, blocked - seen)] : [];
      }),
    );
    // A stalled turn is a prompt the CLI did not take in time: say which and what its screen showed.
    for (const [key, id] of turnIds) {
      if (outcomeOf.get(id) !== 'stalled') continue;
      const { turn } = await host.connection.call('agent.turn.get', { turn_id: id });
      context.progress(`real-fleet: ${run}: ${key} (${agents[Number(key.slice(1, key.indexOf('t')))]?.kind}) stalled: ${JSON.stringify(turn)}`);
    }
    const unfinished = [...turnIds.entries()].filter(([, id]) => !finishedAt.has(id)).map(([key]) => key);
    if (unfinished.length > 0) context.progress(`real-fleet: ${run}: turns never finished: ${unfinished.join(', ')}`);
    return { exact: exactlyOnce(model, agents), ...ends, afterAnswerByKind, menuLatencies, cpuSeconds, seconds, turns: planned, outcomes, refusals };
  } finally {
    await host.stop();
  }
}

/** What a tmux script looks for on a CLI's screen: its prompt drawn, its work going on, a menu. */
const TMUX_READY: Record<RealAgent, RegExp> = {
  claude: /^❯/m,
  codex: /^ {2}\S[^·\n]* · \//m,
  pi: /%\/\d+k \(auto\)/,
  opencode: /┃ {2}\S+ · \S/,
  qwen: /\(shift \+ tab to cycle\)/,
  gemini: /workspace \(\/directory\)/,
};
const TMUX_WORKING = /esc to interrupt|esc interrupt|Working\.\.\.|esc to cancel|Working \(/i;
const TMUX_MENU = /(❯|›|→) (1\. )?(Yes|Allow)|Allow once/;
const TMUX_POLL_MS = 250;

async function tmuxFleet(context: BenchContext, model: ModelServer, run: string, kinds: readonly RealAgent[], turns: PlannedTurn[][]): Promise<Omit<FleetFigures, 'strays'>> {
  const host = await TmuxHost.start(context.environment);
  try {
    const agents = fleet(kinds, model, context.environment.dir, run, turns);
    context.progress(`real-fleet: tmux: starting ${agents.length} agents`);
    const panes: string[] = [];
    for (const agent of agents) {
      const env = Object.entries(agent.prepared.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
      const out = await host.tmux('new-window', '-d', '-t', 'bench', '-P', '-F', '#{pane_id}', '-c', agent.project, ...env, agent.prepared.command.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' '));
      panes.push(out.trim());
    }
    const screenOf = async (pane: string) => (await host.tmux('capture-pane', '-p', '-t', pane)).replace(/\s+$/, '');
    const doneAt = new Map<string, number>();
    const cpuBefore = await host.cpuSeconds();
    const began = performance.now();
    await Promise.all(
      agents.map(async (agent, i) => {
        const pane = panes[i] ?? '';
        const deadline = Date.now() + 180_000;
        while (!TMUX_READY[agent.kind].test(await screenOf(pane)) && Date.now() < deadline) await sleep(TMUX_POLL_MS);
        for (const turn of agent.turns) {
          await host.tmux('send-keys', '-t', pane, '-l', turn.text);
          await sleep(300);
          await host.tmux('send-keys', '-t', pane, 'Enter');
          const turnDeadline = Date.now() + 120_000;
          while (Date.now() < turnDeadline) {
            await sleep(TMUX_POLL_MS);
            const screen = await screenOf(pane);
            if (TMUX_MENU.test(screen)) {
              await host.tmux('send-keys', '-t', pane, 'Enter');
              await sleep(TMUX_POLL_MS);
              continue;
            }
            if (screen.includes(`END-${turn.id}`) && !TMUX_WORKING.test(screen) && TMUX_READY[agent.kind].test(screen)) {
              doneAt.set(turn.id, Date.now());
              break;
            }
          }
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    const cpuSeconds = (await host.cpuSeconds()) - cpuBefore;
    const ends = endLatencies(model, agents, (turn) => doneAt.get(turn.id));
    const planned = agents.reduce((sum, agent) => sum + agent.turns.length, 0);
    return { exact: exactlyOnce(model, agents), ...ends, menuLatencies: [], cpuSeconds, seconds, turns: planned };
  } finally {
    await host.stop();
  }
}

function byKind(lists: Partial<Record<RealAgent, number[]>>): string {
  return Object.entries(lists).map(([kind, list]) => `${kind} ${median(list).toFixed(0)}/${percentile(list, 99).toFixed(0)}`).join(', ');
}

function summary(figures: FleetFigures): string {
  return `${figures.exact.toFixed(1)}% exactly once in order; last byte → end seen p50 ${median(figures.endLatencies).toFixed(0)} ms, p99 ${percentile(figures.endLatencies, 99).toFixed(0)} ms` +
    (figures.menuLatencies.length > 0 ? `; menu → blocked p50 ${median(figures.menuLatencies).toFixed(0)} ms, p99 ${percentile(figures.menuLatencies, 99).toFixed(0)} ms` : '') +
    `; ${figures.cpuSeconds.toFixed(1)} CPU s over ${figures.seconds.toFixed(0)} s; ${figures.strays} processes outlived their panes` +
    `; by CLI p50/p99 ${byKind(figures.endByKind)}` +
    (figures.afterAnswerByKind ? `; answer on the screen → end seen, by CLI p50/p99 ${byKind(figures.afterAnswerByKind)}` : '') +
    (figures.outcomes ? `; turns ended ${JSON.stringify(figures.outcomes)}` : '') +
    (figures.refusals?.length ? `; inbox refusals retried: ${figures.refusals.length} (${[...new Set(figures.refusals)].slice(0, 3).join(' | ')})` : '');
}

type FleetContender = 'herdr' | 'tmux';

export async function realFleetScenario(context: BenchContext): Promise<ScenarioResult> {
  const agentCount = sized(context, { smoke: 3, quick: 20, full: 50 });
  const turnCount = sized(context, { smoke: 2, quick: 5, full: 6 });
  const repetitions = sized(context, { smoke: 1, quick: 2, full: 3 });
  const kinds = KINDS.filter((kind) => skipUnlessInstalled(cliOf(kind)) === false);
  const title = `A fleet of real agents: ${agentCount} CLIs of ${Math.min(agentCount, kinds.length)} vendors, ${turnCount} turns each`;
  if (kinds.length < 3) {
    const why = KINDS.map((kind) => skipUnlessInstalled(cliOf(kind))).find((reason) => reason !== false);
    context.progress(`real-fleet: skipped: fewer than three agent CLIs installed (${why})`);
    return { id: 'real-fleet', title, method: `Skipped: fewer than three of ${KINDS.join(', ')} are installed (npm run agents:install): ${why}`, metrics: [], targets: [] };
  }
  const turns = plan(agentCount, turnCount);
  const contenders: FleetContender[] = context.hostNames.includes('tmux') ? ['herdr', 'tmux'] : ['herdr'];
  const runs = new Map<FleetContender, FleetFigures[]>();
  const model = await ModelServer.start();
  try {
    for (let repetition = 0; repetition < repetitions; repetition++) {
      for (const contender of rotated(contenders, repetition)) {
        const run = `${contender}-${repetition}`;
        const ran = contender === 'herdr' ? await herdrFleet(context, model, run, kinds, turns) : await tmuxFleet(context, model, run, kinds, turns);
        // What outlived its pane once the host closed them all (herdr ends a pane's processes after a 2 s grace).
        await sleep(STRAY_GRACE_MS);
        const figures = { ...ran, strays: endStrays(join(context.environment.dir, run)) };
        context.progress(`real-fleet: ${run}: ${summary(figures)}`);
        runs.set(contender, [...(runs.get(contender) ?? []), figures]);
      }
    }
  } finally {
    await model.close();
  }
  // Each repetition's figure; the metric is their median, the samples their range.
  const metric = (name: string, unit: string, better: Metric['better'], pick: (figures: FleetFigures) => number, only?: FleetContender): Metric => {
    const set = new SampleSet();
    for (const [contender, list] of runs) if (!only || contender === only) for (const figures of list) set.add(contender, pick(figures));
    return set.metric(name, unit, better);
  };
  const afterAnswer = (figures: FleetFigures) => Object.values(figures.afterAnswerByKind ?? {}).flat();
  const all = (contender: FleetContender, pick: (figures: FleetFigures) => number[]) => (runs.get(contender) ?? []).flatMap(pick);
  const worstExact = Math.min(...(runs.get('herdr') ?? []).map((figures) => figures.exact));
  const p99 = percentile(all('herdr', (figures) => figures.endLatencies), 99);
  const menu99 = percentile(all('herdr', (figures) => figures.menuLatencies), 99);
  return {
    id: 'real-fleet',
    title,
    method:
      `${agentCount} real CLIs (${kinds.join(', ')}, round-robin; harness/agents/homes.ts) against the scripted model server on 127.0.0.1: ${turnCount} prompts each, ` +
      `a streamed answer (~220 characters, 8 every 40 ms) or, in one turn in ${TOOL_EVERY}, a shell call its CLI asks permission for, answered through approvals.answer. ` +
      `herdr: ${CLIENTS} clients send every prompt at once with client keys (${RETRY_PERCENT}% sent again); the server queues them. ` +
      `tmux: a script per agent types with send-keys (text, 300 ms, Enter), polls capture-pane every ${TMUX_POLL_MS} ms for the answer and for a menu (answered with Enter), one prompt at a time, no retries (it has no keys). ` +
      "Exactly once and in order as the model server saw the prompts; latency from the model's last byte of a turn to pane.turn_finished (herdr) or to the poll that saw the answer (tmux); " +
      "for herdr also from the answer's end mark on the screen (pane.wait_for_output, started with the turn) to pane.turn_finished: its own share, after the CLI drew the answer; " +
      "a menu on the screen (the server's own output matcher) to blocked; CPU of the server process only (not the agents, not the tmux script's clients). " +
      `${repetitions} repetition${repetitions === 1 ? '' : 's'}, contenders alternating first; figures are the median of the repetitions (every repetition's in the JSON).`,
    metrics: [
      metric('prompts that reached the model exactly once, in order', '%', 'higher', (figures) => figures.exact),
      metric("model's last byte → turn end seen, p50", 'ms', 'lower', (figures) => median(figures.endLatencies)),
      metric("model's last byte → turn end seen, p99", 'ms', 'lower', (figures) => percentile(figures.endLatencies, 99)),
      metric("answer's end on the screen → turn end seen, p50", 'ms', 'lower', (figures) => median(afterAnswer(figures)), 'herdr'),
      metric("answer's end on the screen → turn end seen, p99", 'ms', 'lower', (figures) => percentile(afterAnswer(figures), 99), 'herdr'),
      metric('menu on the screen → blocked (in the inbox), p50', 'ms', 'lower', (figures) => median(figures.menuLatencies), 'herdr'),
      metric('menu on the screen → blocked (in the inbox), p99', 'ms', 'lower', (figures) => percentile(figures.menuLatencies, 99), 'herdr'),
      metric('server CPU per turn', 'ms', 'lower', (figures) => (figures.cpuSeconds * 1000) / figures.turns),
      metric('server CPU per working agent', 'ms/min', 'lower', (figures) => (figures.cpuSeconds * 1000) / (agentCount * (figures.seconds / 60))),
      metric("the whole fleet's turns", 's', 'lower', (figures) => figures.seconds),
      metric('agent processes left running after the panes closed', 'processes', 'lower', (figures) => figures.strays),
    ],
    targets: measured([
      { what: 'prompts that reached the model exactly once, in order (worst repetition)', target: '100 %', measured: formatFigure(worstExact, '%'), met: worstExact === 100 },
      Number.isFinite(p99) ? { what: `model's last byte → pane.turn_finished, p99 of every turn, ${agentCount} agents`, target: '≤ 300 ms', measured: formatFigure(p99, 'ms'), met: p99 <= 300 } : undefined,
      Number.isFinite(menu99) ? { what: `menu drawn → inbox entry, p99 of every menu, ${agentCount} agents`, target: '≤ 300 ms', measured: formatFigure(menu99, 'ms'), met: menu99 <= 300 } : undefined,
    ]),
  };
}
