/**
 * The orchestration bench's fleets: fake agents (bench/fixtures/agents/fake-agent) that
 * each get one prompt, driven three ways as a script would drive them: herdr's agent API
 * (`agent.prompt` with its wait, then `agent.read`), herdr's pane API composed
 * (`pane.send_input`, a fleet-wide `pane.agent_state_changed` subscription, `pane.read`)
 * and tmux (`send-keys`, then `capture-pane` every 100 ms). A round builds a fresh fleet,
 * times it from the prompts to the last answer in hand, and ends it.
 */
import { join } from 'node:path';
import { eventually, sleep } from '../../harness/poll.js';
import { REPO_ROOT } from '../../harness/server.js';
import type { Subscription } from '../../src/client/subscription.js';
import type { LayoutTreeNode } from '../../src/protocol/layout-tree.js';
import type { HerdrHost } from '../contenders/herdr.js';
import type { TmuxHost } from '../contenders/tmux.js';
import { Prng } from '../corpus/prng.js';

export const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
/** What the fake agent asks before it blocks. */
const QUESTION = 'Do you want to proceed?';
/** How often the tmux script looks at the panes it still waits for (a script's `sleep 0.1`). */
const POLL_MS = 100;
/** Rows of each screen a driver reads for the answer: the answer or the question is in the last few. */
export const READ_ROWS = 10;
/** A turn that has not ended by then is a broken run, not a figure. */
const TURN_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 60_000;

/** One agent's prompt in a round, and what its screen shows once the turn ended. */
export interface FleetTask {
  text: string;
  /** The agent's own work time, drawn: what the latency leaves out. */
  workMs: number;
  /** An `ask` prompt: the turn ends blocked on QUESTION instead of with an answer. */
  asks: boolean;
  answer: string;
}

/** What a driver measured in one round. */
export interface RoundFigures {
  /** Per agent: answer in hand − prompt sent − the agent's work time, in ms. */
  latencies: number[];
  /** First prompt sent → last answer in hand. */
  wallMs: number;
  /** The server's CPU over the same stretch. */
  cpuSeconds: number;
}

/** The round's prompts: the same draws for every contender (a PRNG seeded by round). */
export function drawTasks(seed: number, count: number, workMs: { low: number; high: number }, askPercent: number): FleetTask[] {
  const prng = new Prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const ms = prng.between(workMs.low, workMs.high);
    const asks = prng.chance(askPercent);
    const what = `task-${seed}-${i}`;
    return { text: `${asks ? 'ask' : 'work'} ${ms} ${what}`, workMs: ms, asks, answer: `answer: ${what} (1)` };
  });
}

/** Whether `rows` (a screen's last rows) show that the task's turn ended: its answer line, or the question. */
export function turnShown(task: FleetTask, rows: readonly string[]): boolean {
  return rows.some((row) => (task.asks ? row.trimEnd() === QUESTION : row.trimEnd() === task.answer));
}

/** The leaves as a balanced split tree, right and down by turns (layout order = the leaves' order). */
export function balancedTree(leaves: readonly LayoutTreeNode[], level = 0): LayoutTreeNode {
  const [only] = leaves;
  if (leaves.length === 1 && only) return only;
  const half = Math.ceil(leaves.length / 2);
  return {
    type: 'split',
    direction: level % 2 === 0 ? 'right' : 'down',
    ratio: 0.5,
    first: balancedTree(leaves.slice(0, half), level + 1),
    second: balancedTree(leaves.slice(half), level + 1),
  };
}

/** Rejects after `ms` unless `promise` settled first. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Every task's figures when `drive` sends task i to agent i and resolves once its answer is in hand. */
async function timedRound(tasks: readonly FleetTask[], cpuSeconds: () => Promise<number>, drive: (task: FleetTask, index: number) => Promise<void>): Promise<RoundFigures> {
  const cpuBefore = await cpuSeconds();
  const start = performance.now();
  const latencies = await Promise.all(
    tasks.map(async (task, i) => {
      const sent = performance.now();
      await within(drive(task, i), TURN_TIMEOUT_MS, `agent ${i}'s turn (${task.text})`);
      return performance.now() - sent - task.workMs;
    }),
  );
  const wallMs = performance.now() - start;
  return { latencies, wallMs, cpuSeconds: (await cpuSeconds()) - cpuBefore };
}

/** One `layout.apply` of `count` fake agents in the bench directory: the new workspace and its panes in layout order. */
async function herdrFleet(host: HerdrHost, count: number, cwd: string): Promise<{ workspace: string; panes: string[] }> {
  const leaves: LayoutTreeNode[] = Array.from({ length: count }, () => ({ type: 'pane', command: [FAKE_AGENT], cwd }));
  const { layout } = await host.connection.call('layout.apply', { root: balancedTree(leaves), label: 'fleet' });
  const panes: string[] = [];
  const collect = (node: LayoutTreeNode): void => {
    if (node.type === 'split') {
      collect(node.first);
      collect(node.second);
    } else if (node.pane_id) panes.push(node.pane_id);
  };
  collect(layout.root);
  if (panes.length !== count) throw new Error(`layout.apply made ${panes.length} panes of ${count}`);
  return { workspace: layout.workspace_id, panes };
}

/** Runs `round` on a fresh herdr fleet once every agent is idle (by `ready`), then closes the fleet. */
async function withHerdrFleet(
  host: HerdrHost,
  count: number,
  cwd: string,
  ready: (workspace: string) => Promise<boolean>,
  round: (panes: string[]) => Promise<RoundFigures>,
): Promise<RoundFigures> {
  const { workspace, panes } = await herdrFleet(host, count, cwd);
  try {
    await eventually(() => ready(workspace), `${count} fake agents to be idle`, READY_TIMEOUT_MS, 50);
    return await round(panes);
  } finally {
    await host.connection.call('workspace.close', { workspace_id: workspace }).catch(() => undefined);
  }
}

/** herdr, agent API: per agent one `agent.prompt` that waits for the turn's end, then `agent.read`. */
export function herdrAgentApiRound(host: HerdrHost, tasks: readonly FleetTask[], cwd: string): Promise<RoundFigures> {
  const connection = host.connection;
  const ready = async (workspace: string) => {
    const { agents } = await connection.call('agent.list', {});
    return agents.filter((agent) => agent.workspace_id === workspace && agent.agent_status === 'idle').length === tasks.length;
  };
  return withHerdrFleet(host, tasks.length, cwd, ready, (panes) =>
    timedRound(tasks, () => host.cpuSeconds(), async (task, i) => {
      const target = panes[i] ?? '';
      const { agent } = await connection.call('agent.prompt', {
        target,
        text: task.text,
        wait: { until: ['idle', 'done', 'blocked'], timeout_ms: TURN_TIMEOUT_MS },
      });
      if ((agent.agent_status === 'blocked') !== task.asks) throw new Error(`agent ${target} ended its turn ${agent.agent_status} (${task.text})`);
      const { read } = await connection.call('agent.read', { target, source: 'recent', lines: READ_ROWS });
      if (!turnShown(task, read.text.split('\n'))) throw new Error(`agent ${target}: no answer on its screen after its turn (${task.text})`);
    }),
  );
}

/**
 * Turn ends seen on one fleet-wide `pane.agent_state_changed` subscription: a pane's
 * first idle or blocked after a working. Ask for a pane's next end before typing into it.
 */
class TurnWatch {
  private readonly working = new Set<string>();
  private readonly waiters = new Map<string, () => void>();

  private constructor(private readonly subscription: Subscription) {
    void this.listen();
  }

  static async open(host: HerdrHost): Promise<TurnWatch> {
    return new TurnWatch(await host.client.subscribe([{ type: 'pane.agent_state_changed' }]));
  }

  private async listen(): Promise<void> {
    for await (const line of this.subscription) {
      if (line.event !== 'pane.agent_state_changed') continue;
      const { pane_id: pane, state } = line.data;
      if (state === 'working') this.working.add(pane);
      else if ((state === 'idle' || state === 'blocked') && this.working.delete(pane)) {
        this.waiters.get(pane)?.();
        this.waiters.delete(pane);
      }
    }
  }

  nextEnd(pane: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(pane, resolve));
  }

  close(): void {
    this.subscription.close();
  }
}

/** herdr, composed: `pane.send_input`, the turn's end from the subscription (opened before any prompt), then `pane.read`. */
export function herdrComposedRound(host: HerdrHost, tasks: readonly FleetTask[], cwd: string): Promise<RoundFigures> {
  const connection = host.connection;
  const ready = async (workspace: string) => {
    const { panes } = await connection.call('pane.list', { workspace_id: workspace });
    return panes.filter((pane) => pane.agent_state === 'idle').length === tasks.length;
  };
  return withHerdrFleet(host, tasks.length, cwd, ready, async (panes) => {
    const watch = await TurnWatch.open(host);
    try {
      return await timedRound(tasks, () => host.cpuSeconds(), async (task, i) => {
        const pane = panes[i] ?? '';
        const ended = watch.nextEnd(pane);
        await connection.call('pane.send_input', { pane_id: pane, text: task.text });
        await ended;
        const { read } = await connection.call('pane.read', { pane_id: pane, source: 'recent', lines: READ_ROWS });
        if (!turnShown(task, read.text.split('\n'))) throw new Error(`pane ${pane}: no answer on its screen after its turn (${task.text})`);
      });
    } finally {
      watch.close();
    }
  });
}

/**
 * tmux: a window per agent, every prompt typed by one chained `send-keys` invocation,
 * then every 100 ms one chained `capture-pane` of the panes still working until each
 * shows its answer or the question.
 */
export async function tmuxRound(host: TmuxHost, tasks: readonly FleetTask[]): Promise<RoundFigures> {
  const panes = await host.createPanes(tasks.length, FAKE_AGENT);
  try {
    await host.untilLine(panes, 'fake agent ready', READY_TIMEOUT_MS);
    const cpuBefore = await host.cpuSeconds();
    const start = performance.now();
    await host.typeLine(panes, (i) => tasks[i]?.text ?? '');
    const latencies: number[] = [];
    let pending = panes.map((pane, i) => ({ pane, task: tasks[i] as FleetTask }));
    for (;;) {
      const screens = await host.lastRows(pending.map(({ pane }) => pane), READ_ROWS);
      const at = performance.now();
      pending = pending.filter(({ pane, task }) => {
        if (!turnShown(task, screens.get(pane) ?? [])) return true;
        latencies.push(at - start - task.workMs);
        return false;
      });
      if (pending.length === 0) return { latencies, wallMs: at - start, cpuSeconds: (await host.cpuSeconds()) - cpuBefore };
      if (at - start > TURN_TIMEOUT_MS) throw new Error(`tmux: ${pending.length} agents never showed an answer`);
      await sleep(POLL_MS);
    }
  } finally {
    await host.closePanes(panes);
  }
}
