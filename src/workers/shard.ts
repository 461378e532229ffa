/**
 * Shard worker entry: owns the panes of whole workspaces and answers the main
 * thread's requests (src/protocol/thread.ts). It posts back replies and
 * batched pane updates, never per-chunk output.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { ProtocolError, isErrorCode } from '../protocol/errors.js';
import type { FromShard, PaneUpdate, ShardInit, ShardRequestKind, ShardRequests, ToShard } from '../protocol/thread.js';
import { IdleCollector } from './idle-gc.js';
import { EVALUATE_AFTER_MS, type MatchChange, PaneMatchers } from './matchers.js';
import { Pane } from './pane.js';
import { PaneAgent } from './agents/pane-agent.js';
import { cwdLabel, processCwd, realDirectory } from './proc.js';

/** Pane facts (revision, cwd, title) are posted at most this often per shard. */
const UPDATE_INTERVAL_MS = 50;
/** cwd can change without output (rare); a slow sweep catches it. */
const SWEEP_INTERVAL_MS = 2000;

if (!parentPort) throw new Error('shard.ts must run in a worker thread');
const port = parentPort;
const init = workerData as ShardInit;

interface PaneState {
  pane: Pane;
  sent: { revision: number; cwd: string | undefined; title: string };
  agent: PaneAgent;
  processCheckTimer?: NodeJS.Timeout | undefined;
}

/** A screen change re-checks the foreground process when the last check is older than this. */
const PROCESS_CHECK_AFTER_MS = 250;
/** The slow tick for process changes without screen changes (an agent leaving, its linger ending). */
const PROCESS_TICK_MS = 1000;

const panes = new Map<number, PaneState>();
const dirty = new Set<number>();
let flushTimer: NodeJS.Timeout | undefined;
const shutdownWaiters: Array<() => void> = [];
/** Bytes parsed by panes that are gone, so the shard's total never goes down. */
let retiredBytes = 0;

function post(message: FromShard): void {
  port.postMessage(message);
}

function markDirty(paneUid: number): void {
  dirty.add(paneUid);
  flushTimer ??= setTimeout(flushUpdates, UPDATE_INTERVAL_MS);
}

function paneUpdate(state: PaneState): PaneUpdate | undefined {
  const { pane, sent } = state;
  const update: PaneUpdate = { paneUid: pane.uid };
  let changed = false;
  if (pane.revision !== sent.revision) {
    update.revision = sent.revision = pane.revision;
    changed = true;
  }
  if (pane.title !== sent.title) {
    update.title = sent.title = pane.title;
    changed = true;
  }
  const cwd = processCwd(pane.pid);
  if (cwd !== undefined && cwd !== sent.cwd) {
    sent.cwd = update.cwd = cwd;
    update.cwdLabel = cwdLabel(cwd, init.home);
    changed = true;
  }
  return changed ? update : undefined;
}

function flushUpdates(): void {
  flushTimer = undefined;
  const updates: PaneUpdate[] = [];
  for (const uid of dirty) {
    const state = panes.get(uid);
    const update = state && !state.pane.ended ? paneUpdate(state) : undefined;
    if (update) updates.push(update);
  }
  dirty.clear();
  if (updates.length > 0) post({ kind: 'paneUpdates', updates });
}

const collector = new IdleCollector();

/** Output matchers by pane, and which pane each matcher watches; panes whose screen changed since the last look. */
const matchers = new Map<number, PaneMatchers>();
const matcherPanes = new Map<number, number>();
const screenDirty = new Set<number>();
let screenTimer: NodeJS.Timeout | undefined;

function postChanges(changes: MatchChange[]): void {
  for (const change of changes) post({ kind: 'matchChanged', ...change });
}

let lastEvaluation = 0;

/**
 * Leading edge: the first change after a quiet spell is evaluated at once (a
 * match is answered within milliseconds); changes within EVALUATE_AFTER_MS of
 * the last evaluation coalesce into one more at the end of that interval, so
 * a flooding pane costs at most one evaluation per interval.
 */
function scheduleEvaluation(): void {
  if (screenTimer) return;
  const wait = Math.max(0, lastEvaluation + EVALUATE_AFTER_MS - Date.now());
  screenTimer = setTimeout(evaluateChangedScreens, wait);
}

function evaluateChangedScreens(): void {
  screenTimer = undefined;
  lastEvaluation = Date.now();
  for (const uid of screenDirty) {
    const state = panes.get(uid);
    if (!state || state.pane.ended) continue;
    const paneMatchers = matchers.get(uid);
    if (paneMatchers) postChanges(paneMatchers.evaluate(state.pane));
    evaluateAgent(state, lastEvaluation);
  }
  screenDirty.clear();
}

/** Agent detection after a screen change or a process change (SPEC §10.3). */
function evaluateAgent(state: PaneState, now: number, processChecked = false): void {
  const { pane, agent } = state;
  if (!processChecked) {
    const checkDue = agent.lastProcessCheck + PROCESS_CHECK_AFTER_MS;
    if (now >= checkDue) agent.checkProcess(pane.pid, now);
    else if (!state.processCheckTimer) {
      // A change inside the throttle window still gets its look at the processes, a little later.
      state.processCheckTimer = setTimeout(() => {
        state.processCheckTimer = undefined;
        if (!pane.ended) evaluateAgent(state, Date.now());
      }, checkDue - now);
      state.processCheckTimer.unref();
    }
  }
  const { report, recheckAt } = agent.evaluate(
    () => pane.read({ paneUid: pane.uid, source: 'visible', lines: 0, stripAnsi: true }).text,
    now,
  );
  if (report) {
    post(report.agent === undefined
      ? { kind: 'agentChanged', paneUid: pane.uid, state: report.state }
      : { kind: 'agentChanged', paneUid: pane.uid, agent: report.agent, state: report.state });
  }
  if (recheckAt !== undefined) {
    setTimeout(() => {
      if (!pane.ended) evaluateAgent(state, Date.now(), true);
    }, Math.max(0, recheckAt - now)).unref();
  }
}

function dropMatchers(paneUid: number): void {
  const paneMatchers = matchers.get(paneUid);
  if (!paneMatchers) return;
  for (const [matcherId, uid] of matcherPanes) if (uid === paneUid) matcherPanes.delete(matcherId);
  matchers.delete(paneUid);
  screenDirty.delete(paneUid);
}

const paneEvents = {
  parsed(bytes: number): void {
    collector.parsed(bytes);
  },
  dirty(pane: Pane): void {
    markDirty(pane.uid);
    const state = panes.get(pane.uid);
    if (matchers.has(pane.uid) || (state && !state.processCheckTimer)) {
      screenDirty.add(pane.uid);
      scheduleEvaluation();
    }
  },
  exited(pane: Pane, exitCode: number, signal: number | undefined): void {
    retiredBytes += pane.bytesParsed;
    dropMatchers(pane.uid);
    panes.delete(pane.uid);
    dirty.delete(pane.uid);
    post(signal === undefined
      ? { kind: 'paneExited', paneUid: pane.uid, exitCode }
      : { kind: 'paneExited', paneUid: pane.uid, exitCode, signal });
    if (panes.size === 0) shutdownWaiters.splice(0).forEach((resolve) => resolve());
  },
};

function paneOf(paneUid: number): Pane {
  const state = panes.get(paneUid);
  if (!state || state.pane.ended) throw new ProtocolError('pane_not_found', `pane ${paneUid} is not in shard ${init.shardId}`);
  return state.pane;
}

type Handlers = {
  [K in ShardRequestKind]: (
    params: ShardRequests[K]['params'],
  ) => ShardRequests[K]['result'] | Promise<ShardRequests[K]['result']>;
};

const handlers: Handlers = {
  spawn(params) {
    const source = params.inheritCwdFromPaneUid === undefined ? undefined : panes.get(params.inheritCwdFromPaneUid);
    const inherited = source ? processCwd(source.pane.pid) : undefined;
    if (inherited !== undefined) params = { ...params, cwd: inherited };
    const pane = new Pane(params, paneEvents);
    // Not /proc yet: the forked child may not have entered its directory.
    const cwd = realDirectory(params.cwd);
    panes.set(pane.uid, { pane, sent: { revision: 0, cwd, title: '' }, agent: new PaneAgent() });
    return { pid: pane.pid, cwd, cwdLabel: cwdLabel(cwd, init.home) };
  },
  read(params) {
    return paneOf(params.paneUid).read(params);
  },
  input(params) {
    paneOf(params.paneUid).input(params);
    return null;
  },
  resize(params) {
    paneOf(params.paneUid).resize(params.cols, params.rows);
    return null;
  },
  close(params) {
    dropMatchers(params.paneUid);
    panes.get(params.paneUid)?.pane.close();
    return null;
  },
  watch(params) {
    const pane = paneOf(params.paneUid);
    let paneMatchers = matchers.get(pane.uid);
    if (!paneMatchers) matchers.set(pane.uid, (paneMatchers = new PaneMatchers()));
    paneMatchers.add(params);
    matcherPanes.set(params.matcherId, pane.uid);
    postChanges(paneMatchers.evaluate(pane, params.matcherId));
    return null;
  },
  unwatch(params) {
    const paneUid = matcherPanes.get(params.matcherId);
    matcherPanes.delete(params.matcherId);
    const paneMatchers = paneUid === undefined ? undefined : matchers.get(paneUid);
    paneMatchers?.remove(params.matcherId);
    if (paneUid !== undefined && paneMatchers?.size === 0) matchers.delete(paneUid);
    return null;
  },
  shutdown() {
    for (const { pane } of panes.values()) pane.close();
    if (panes.size === 0) return null;
    return new Promise<null>((resolve) => shutdownWaiters.push(() => resolve(null)));
  },
  stats() {
    let bytesParsed = 0;
    for (const { pane } of panes.values()) bytesParsed += pane.bytesParsed;
    return {
      panes: panes.size,
      bytesParsed: bytesParsed + retiredBytes,
      matchers: matcherPanes.size,
      heapUsedBytes: getHeapStatistics().used_heap_size,
    };
  },
};

async function handle(message: ToShard): Promise<void> {
  try {
    // The mapped Handlers type pairs each kind with its params; TS cannot follow
    // the correlation through the union, hence the one widening here.
    const handler = handlers[message.kind] as (params: unknown) => unknown;
    const result = await handler(message.params);
    post({ kind: 'reply', reqId: message.reqId, result });
  } catch (error) {
    const code = error instanceof ProtocolError && isErrorCode(error.code) ? error.code : 'internal_error';
    const text = error instanceof Error ? error.message : String(error);
    post({ kind: 'reply', reqId: message.reqId, error: { code, message: text } });
  }
}

port.on('message', (message: ToShard) => void handle(message));

const sweep = setInterval(() => {
  for (const uid of panes.keys()) markDirty(uid);
}, SWEEP_INTERVAL_MS);
sweep.unref();

const processTick = setInterval(() => {
  const now = Date.now();
  for (const state of panes.values()) {
    if (!state.pane.ended && state.agent.checkProcess(state.pane.pid, now)) evaluateAgent(state, now, true);
  }
}, PROCESS_TICK_MS);
processTick.unref();
