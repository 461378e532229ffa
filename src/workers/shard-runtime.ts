/**
 * A shard's state and behaviour: its panes, their output matchers and agent
 * watches, and the answers to the main thread's requests
 * (src/protocol/thread.ts). The pieces that decide timing are named and
 * tested on their own: evaluation-scheduler.ts (when screens are looked at),
 * fact-reporter.ts (when facts are posted), agents/agent-checks.ts (when
 * processes are checked). Output itself is parsed as it is read (pane.ts).
 */
import { getHeapStatistics } from 'node:v8';
import { ProtocolError, isErrorCode } from '../protocol/errors.js';
import type { FromShard, ShardInit, ShardRequestKind, ShardRequests, SubmitParams, SubmitResult, ToShard } from '../protocol/thread.js';
import { untilBeat } from '../protocol/quiet-beat.js';
import { AgentChecks, PROCESS_TICK_MS, QUIET_TICK_MS } from './agents/agent-checks.js';
import { type Clock, type Timer, realClock } from './clock.js';
import { injectFault } from './debug-faults.js';
import { ReportThrottle } from './report-throttle.js';
import { EVALUATION_INTERVAL_MS, EvaluationScheduler, WORKING_LOOK_INTERVAL_MS } from './evaluation-scheduler.js';
import { FactReporter, SWEEP_INTERVAL_MS } from './fact-reporter.js';
import { type MatchChange, PaneMatchers } from './matchers.js';
import { Pane, type PaneEvents } from './pane.js';
import { cwdLabel, processCwd, realDirectory } from './proc.js';
import { QuietTime } from './quiet-time.js';
import { answerKeys } from './menu-answer.js';
import { type ResolvedKey, resolveKey } from '../protocol/keys.js';
import { PromptSubmission } from './agents/prompt-submission.js';
import { submitProfileOf } from './agents/detect.js';
import { applyManifests } from './agents/manifest-tables.js';
import { groupCpu } from '../os/group-cpu.js';
import { BlockFile } from './persistence/block-file.js';
import { readRestoredRows } from './persistence/restore-rows.js';
import { lowerProcessSessionPriority } from './thread-priority.js';

/**
 * A shard that parsed more than this since the last snapshot round is
 * flooding: the round stores its history blocks uncompressed, and a round
 * once it is quiet compresses them (block-codec.ts).
 */
const BUSY_BYTES_PER_ROUND = 2 * 1024 * 1024;
/**
 * A pane printing at least this fast since its last snapshot round keeps
 * printing (a flood, or an agent at work redrawing its spinner and timer), and
 * its terminal state goes to the session at most this often. A flood's history
 * blocks are mostly dropped by the history's capacity within seconds, and every
 * round wrote the new ones to disk; a working agent's screen changes between
 * any two rounds, and packing it each second was most of what sessions cost a
 * working fleet. Measured in ARCHITECTURE.md ("Sessions while a pane floods",
 * "What a working agent costs"). A pane that stops is written within
 * STEADY_PRINT_SNAPSHOT_INTERVAL_MS; one that prints now and then (a command's
 * output after a quiet spell) in the next round; a server that stops writes
 * every pane.
 */
const STEADY_PRINT_BYTES_PER_SECOND = 256;
const STEADY_PRINT_SNAPSHOT_INTERVAL_MS = 5000;

/** Whether a snapshot round may leave `pane` out: it changed, but it keeps printing and was written less than the interval ago. */
function steadyPrinterCanWait(pane: Pane, now: number): boolean {
  const elapsed = now - pane.persisted.at;
  if (elapsed >= STEADY_PRINT_SNAPSHOT_INTERVAL_MS) return false;
  return (pane.bytesParsed - pane.persisted.bytesParsed) * 1000 >= STEADY_PRINT_BYTES_PER_SECOND * elapsed;
}
/** A frame drawn under synchronized output is waited for this long at most (kitty and foot wait 150–200 ms). */
const FRAME_LIMIT_MS = 200;
const ENTER = resolveKey('Enter') as ResolvedKey;

interface PaneEntry {
  pane: Pane;
  agent: AgentChecks;
  /** Finished commands (OSC 133 D), throttled like agent pictures (report-throttle.ts): the last exit code always arrives. */
  commands: ReportThrottle<number>;
}

type Handlers = {
  [K in ShardRequestKind]: (
    params: ShardRequests[K]['params'],
  ) => ShardRequests[K]['result'] | Promise<ShardRequests[K]['result']>;
};

export class ShardRuntime {
  private readonly panes = new Map<number, PaneEntry>();
  /** When a look first found each pane mid-frame (synchronized output): looks wait for the frame's end. */
  private readonly frameStarts = new Map<number, number>();
  /** Prompts being submitted, by pane (one at a time: the main thread's turns see to it). */
  private readonly submissions = new Map<number, PromptSubmission>();
  /** Output matchers by pane, and the pane each matcher watches. */
  private readonly matchers = new Map<number, PaneMatchers>();
  private readonly matcherPanes = new Map<number, number>();
  private readonly facts: FactReporter;
  private readonly scheduler: EvaluationScheduler;
  private readonly quietTime: QuietTime;
  private readonly shutdownWaiters: Array<() => void> = [];
  /** Bytes parsed by panes that are gone, so the shard's total never goes down. */
  private retiredBytes = 0;
  /** The shard's total parsed bytes at the last snapshot round (how busy it has been since). */
  private parsedAtLastRound = 0;
  private processTick: Timer | undefined;
  /** When the process tick is due (the clock's time). */
  private processTickAt = 0;
  /** When the tick last swept the panes' facts (FactReporter.sweep). */
  private sweptAt = 0;
  /** This shard's history blocks on disk (undefined when the server keeps no state). */
  private readonly blockFile: BlockFile | undefined;

  constructor(
    private readonly init: ShardInit,
    private readonly post: (message: FromShard, transfer?: ArrayBuffer[]) => void,
    private readonly clock: Clock = realClock,
  ) {
    this.quietTime = new QuietTime(() => this.sealHistories(), init.reclaimAfterMs);
    this.facts = new FactReporter((updates) => post({ kind: 'paneUpdates', updates }), {
      cwd: processCwd,
      label: (cwd) => cwdLabel(cwd, init.home),
    }, clock);
    this.scheduler = new EvaluationScheduler((uid, now) => this.look(uid, now), clock);
    this.scheduleProcessTick(PROCESS_TICK_MS);
    // A shard started after the user's manifests were taken (a replacement) uses them from its first pane.
    if (init.agentManifests && init.agentManifests.length > 0) {
      try {
        applyManifests(init.agentManifests);
      } catch (error) {
        console.error(`herdr: shard ${init.shardId}: the agent manifests in use did not apply: ${(error as Error).message}`);
      }
    }
    // Named for this shard and this process, so no two shards (or servers) ever append to one file.
    this.blockFile = init.blocksDir === undefined ? undefined : new BlockFile(init.blocksDir, `shard${init.shardId}-${process.pid}-${Date.now()}`);
  }

  /** Bytes every pane of this shard has parsed, gone ones included. */
  private parsedBytes(): number {
    let bytes = this.retiredBytes;
    for (const { pane } of this.panes.values()) bytes += pane.bytesParsed;
    return bytes;
  }

  /** Answers one request from the main thread. */
  async handle(message: ToShard): Promise<void> {
    try {
      // The mapped Handlers type pairs each kind with its params; TS cannot follow
      // the correlation through the union, hence the one widening here.
      const handler = this.handlers[message.kind] as (params: unknown) => unknown;
      const result = await handler(message.params);
      this.post({ kind: 'reply', reqId: message.reqId, result });
    } catch (error) {
      const code = error instanceof ProtocolError && isErrorCode(error.code) ? error.code : 'internal_error';
      const text = error instanceof Error ? error.message : String(error);
      this.post({ kind: 'reply', reqId: message.reqId, error: { code, message: text } });
    }
  }

  private readonly paneEvents: PaneEvents = {
    parsed: (bytes) => this.quietTime.parsed(bytes),
    dirty: (pane) => {
      this.facts.touch(pane.uid);
      const entry = this.panes.get(pane.uid);
      const watched = this.matchers.has(pane.uid) || this.submissions.has(pane.uid);
      if (!watched && !entry?.agent.wantsScreenChanges) return;
      this.scheduler.changed(pane.uid, !watched && entry?.agent.state === 'working' ? WORKING_LOOK_INTERVAL_MS : EVALUATION_INTERVAL_MS);
    },
    factsChanged: (pane) => this.facts.touch(pane.uid),
    status: (pane, status) => this.panes.get(pane.uid)?.agent.programStatus(status),
    commandFinished: (pane, exitCode) => this.panes.get(pane.uid)?.commands.offer(exitCode),
    notification: (pane, notification) => this.post({ kind: 'notification', paneUid: pane.uid, ...notification }),
    output: (pane, seq, chunk) => {
      // A copy of just these bytes, moved rather than cloned (a view would clone its whole buffer).
      const bytes = chunk.slice();
      this.post({ kind: 'paneOutput', paneUid: pane.uid, seq, bytes }, [bytes.buffer]);
    },
    resized: (pane, seq) => this.post({ kind: 'paneResized', paneUid: pane.uid, seq, cols: pane.cols, rows: pane.rows }),
    exited: (pane, exitCode, signal) => {
      this.retiredBytes += pane.bytesParsed;
      this.forget(pane.uid);
      this.quietTime.paneEnded();
      this.post(signal === undefined
        ? { kind: 'paneExited', paneUid: pane.uid, exitCode }
        : { kind: 'paneExited', paneUid: pane.uid, exitCode, signal });
      if (this.panes.size === 0) this.shutdownWaiters.splice(0).forEach((resolve) => resolve());
    },
  };

  /** The agent checks' slow tick: every second while a pane wants it, else every QUIET_TICK_MS; the facts' sweep rides on it. */
  private tickProcesses(): void {
    const now = this.clock.now();
    let quick = false;
    for (const { pane, agent } of this.panes.values()) {
      if (pane.ended) continue;
      agent.tick(now);
      quick ||= agent.wantsQuickTick;
    }
    // Half a tick early rather than a whole tick late: ticks land a millisecond or two after their time.
    if (now - this.sweptAt >= SWEEP_INTERVAL_MS - PROCESS_TICK_MS / 2) {
      this.sweptAt = now;
      this.facts.sweep();
    }
    if (quick) this.scheduleProcessTick(PROCESS_TICK_MS);
    // Quiet: on the beat main's heartbeat keeps too, so a quiet shard wakes once for both.
    else this.scheduleProcessTick(untilBeat(now, now + PROCESS_TICK_MS, QUIET_TICK_MS));
  }

  private scheduleProcessTick(ms: number): void {
    this.processTick?.cancel();
    this.processTickAt = this.clock.now() + ms;
    this.processTick = this.clock.after(ms, () => this.tickProcesses());
  }

  /** A pane wants the one-second tick (its screen changed, it is new): a quiet shard's tick is brought forward. */
  private hurryProcessTick(): void {
    if (this.processTickAt - this.clock.now() > PROCESS_TICK_MS) this.scheduleProcessTick(PROCESS_TICK_MS);
  }

  /** The scheduler's look at a changed screen: matchers first, then the agent; not in the middle of a frame. */
  private look(paneUid: number, now: number): void {
    const entry = this.panes.get(paneUid);
    if (!entry || entry.pane.ended) return;
    if (this.midFrame(entry.pane, now)) return;
    const paneMatchers = this.matchers.get(paneUid);
    if (paneMatchers) this.postChanges(paneMatchers.evaluate(entry.pane));
    entry.agent.screenChanged(now);
    this.hurryProcessTick();
    this.submissions.get(paneUid)?.look();
  }

  /** A prompt for the pane's agent, typed and entered as that CLI takes it; answers once it took it or did not (prompt-submission.ts). */
  private submit(params: SubmitParams): Promise<SubmitResult> {
    const { pane, agent } = this.liveEntry(params.paneUid);
    if (this.submissions.has(pane.uid)) throw new ProtocolError('agent_pane_busy', 'a prompt is already being submitted to its pane');
    // Its agent left the foreground: what is in front (the shell) must not get the prompt.
    agent.tick(this.clock.now());
    if (agent.lingering) throw new ProtocolError('agent_not_running', 'the agent has left its terminal');
    // A CLI that reads raw keys and put its terminal back in canonical mode is on its way out.
    if (agent.readsRawKeys && pane.readsKeys() === false) throw new ProtocolError('agent_not_running', 'the agent no longer reads keys');
    return new Promise((resolve) => {
      const target = {
        write: (text: string, keys: ResolvedKey[], paste: boolean) => pane.input({ paneUid: pane.uid, text, keys, paste: paste ? 'always' : false }),
        screen: () => pane.visibleText(),
        busyCount: () => agent.busyCount,
        state: () => agent.state,
        cpu: () => {
          const group = agent.foregroundGroup;
          return group === undefined ? undefined : groupCpu(group);
        },
      };
      const submission = new PromptSubmission(target, params.text, ENTER, submitProfileOf(agent.detected), params.stallMs, this.clock, (result) => {
        this.submissions.delete(pane.uid);
        agent.onEvaluated = undefined;
        resolve(result);
      });
      this.submissions.set(pane.uid, submission);
      agent.onEvaluated = () => submission.look();
      submission.start();
    });
  }

  /**
   * Whether the pane's program is drawing a frame it asked to be shown whole (synchronized
   * output, DEC mode 2026): a screen read then is half old, half new (pi's working row gone,
   * its editor half drawn). The look waits for the frame's end, whose output brings the next
   * look, or FRAME_LIMIT_MS at most, as terminals bound it.
   */
  private midFrame(pane: Pane, now: number): boolean {
    if (!pane.drawingFrame) {
      this.frameStarts.delete(pane.uid);
      return false;
    }
    const started = this.frameStarts.get(pane.uid);
    if (started === undefined) {
      this.frameStarts.set(pane.uid, now);
      this.clock.after(FRAME_LIMIT_MS, () => this.scheduler.changed(pane.uid));
      return true;
    }
    return now - started < FRAME_LIMIT_MS;
  }

  private postChanges(changes: MatchChange[]): void {
    for (const change of changes) this.post({ kind: 'matchChanged', ...change });
  }

  private dropMatchers(paneUid: number): void {
    if (!this.matchers.delete(paneUid)) return;
    for (const [matcherId, uid] of this.matcherPanes) if (uid === paneUid) this.matcherPanes.delete(matcherId);
  }

  private forget(paneUid: number): void {
    this.dropMatchers(paneUid);
    this.submissions.get(paneUid)?.abort();
    this.frameStarts.delete(paneUid);
    this.panes.get(paneUid)?.agent.dispose();
    this.panes.get(paneUid)?.commands.dispose();
    this.panes.delete(paneUid);
    this.facts.remove(paneUid);
    this.scheduler.forget(paneUid);
  }

  private liveEntry(paneUid: number): PaneEntry {
    const entry = this.panes.get(paneUid);
    if (!entry || entry.pane.ended) throw new ProtocolError('pane_not_found', 'the pane has exited or closed');
    return entry;
  }

  private sealHistories(): number {
    let sealed = 0;
    for (const { pane } of this.panes.values()) sealed += pane.sealHistory();
    return sealed;
  }

  private paneOf(paneUid: number): Pane {
    return this.liveEntry(paneUid).pane;
  }

  private readonly handlers: Handlers = {
    spawn: (params) => {
      const source = params.inheritCwdFromPaneUid === undefined ? undefined : this.panes.get(params.inheritCwdFromPaneUid);
      const inherited = source ? processCwd(source.pane.pid) : undefined;
      if (inherited !== undefined) params = { ...params, cwd: inherited };
      const restored = params.restore ? readRestoredRows(params.restore, this.init.blocksDir) : undefined;
      const pane = new Pane(params, this.paneEvents, restored);
      lowerProcessSessionPriority(pane.pid, this.init.nice);
      // Not /proc yet: the forked child may not have entered its directory.
      const cwd = realDirectory(params.cwd);
      const agent = new AgentChecks(
        {
          pid: pane.pid,
          get ended() {
            return pane.ended;
          },
          screen: () => pane.read({ paneUid: pane.uid, source: 'detection', lines: 0, stripAnsi: true }).text,
          title: () => pane.title,
          readsKeys: () => pane.readsKeys(),
        },
        (picture, busyCount) => this.post({ kind: 'agentChanged', paneUid: pane.uid, busyCount, ...picture }),
        this.clock,
      );
      const commands = new ReportThrottle<number>(
        (exitCode) => this.post({ kind: 'commandFinished', paneUid: pane.uid, exitCode }),
        () => false,
        this.clock,
      );
      this.panes.set(pane.uid, { pane, agent, commands });
      this.facts.add(pane, cwd, () => agent.foregroundGroup);
      // A program that took the terminal and prints nothing: its directory is read now, not at the next sweep.
      agent.onForegroundChanged = () => this.facts.touch(pane.uid);
      // Never checked yet: it wants the one-second tick until its first check.
      this.hurryProcessTick();
      return { pid: pane.pid, cwd, cwdLabel: cwdLabel(cwd, this.init.home) };
    },
    read: (params) => {
      const pane = this.paneOf(params.paneUid);
      pane.catchUp();
      return pane.read(params);
    },
    selection: (params) => {
      const pane = this.paneOf(params.paneUid);
      pane.catchUp();
      return pane.selection(params);
    },
    input: (params) => {
      this.paneOf(params.paneUid).input(params);
      return null;
    },
    submit: (params) => this.submit(params),
    resize: (params) => {
      this.paneOf(params.paneUid).resize(params.cols, params.rows);
      return null;
    },
    scroll: (params) => {
      const pane = this.paneOf(params.paneUid);
      const changed = pane.scrollView(params.move);
      return { changed, scroll: pane.scroll };
    },
    close: (params) => {
      this.dropMatchers(params.paneUid);
      this.panes.get(params.paneUid)?.pane.close();
      return null;
    },
    addMatcher: (params) => {
      const pane = this.paneOf(params.paneUid);
      pane.catchUp();
      let paneMatchers = this.matchers.get(pane.uid);
      if (!paneMatchers) this.matchers.set(pane.uid, (paneMatchers = new PaneMatchers()));
      paneMatchers.add(params);
      this.matcherPanes.set(params.matcherId, pane.uid);
      this.postChanges(paneMatchers.evaluate(pane, params.matcherId));
      return null;
    },
    removeMatcher: (params) => {
      const paneUid = this.matcherPanes.get(params.matcherId);
      this.matcherPanes.delete(params.matcherId);
      const paneMatchers = paneUid === undefined ? undefined : this.matchers.get(paneUid);
      paneMatchers?.remove(params.matcherId);
      if (paneUid !== undefined && paneMatchers?.size === 0) this.matchers.delete(paneUid);
      return null;
    },
    hook: (params) => {
      this.liveEntry(params.paneUid).agent.hook(params);
      return null;
    },
    clearAuthority: (params) => {
      this.liveEntry(params.paneUid).agent.clearAuthority(params);
      return null;
    },
    agentManifests: ({ files }) => {
      // Throws for a set that does not fit, before anything changed.
      const tables = applyManifests(files);
      const now = this.clock.now();
      for (const { pane, agent } of this.panes.values()) if (!pane.ended) agent.tablesChanged(now);
      return tables;
    },
    explain: (params) => this.liveEntry(params.paneUid).agent.explain(),
    shutdown: () => {
      // Closed in one turn, so their processes are ended with one walk of /proc.
      for (const { pane } of this.panes.values()) pane.close();
      if (this.panes.size === 0) return null;
      return new Promise<null>((resolve) => this.shutdownWaiters.push(() => resolve(null)));
    },
    streamOpen: (params) => this.paneOf(params.paneUid).openStream(),
    streamClose: (params) => {
      // The pane may have exited meanwhile; its streams went with it.
      this.panes.get(params.paneUid)?.pane.closeStream();
      return null;
    },
    screen: (params) => this.paneOf(params.paneUid).screen(),
    menu: (params) => this.paneOf(params.paneUid).menu(),
    answerMenu: ({ paneUid, option, questionHash }) => {
      const pane = this.paneOf(paneUid);
      const answer = answerKeys(pane.menu(), option, questionHash);
      const keys = answer.keys.map((name) => {
        const key = resolveKey(name);
        if (!key) throw new ProtocolError('invalid_key', `unsupported key ${name}`);
        return key;
      });
      pane.input({ paneUid, text: '', keys, paste: false });
      return answer;
    },
    persist: ({ all }) => {
      const blockFile = this.blockFile;
      if (!blockFile) return { panes: [], blockFile: undefined, owesRound: false };
      const live = [...this.panes.values()].filter(({ pane }) => !pane.ended);
      // A shard that parsed much since the last round is flooding: its blocks go to disk as they are, compressed once it is quiet.
      const parsed = this.parsedBytes();
      const compress = parsed - this.parsedAtLastRound < BUSY_BYTES_PER_ROUND;
      this.parsedAtLastRound = parsed;
      // A file mostly holding dropped blocks is left behind: every pane's live blocks go to a fresh one.
      const rewrite = blockFile.shouldRoll(live.reduce((sum, { pane }) => sum + pane.storedBytes, 0));
      if (rewrite) blockFile.roll();
      const now = this.clock.now();
      const owed = live.filter(({ pane }) => all || rewrite || pane.persistedRevision !== pane.revision || (compress && pane.hasUncompressedBlocks));
      const waiting = new Set(owed.filter(({ pane }) => !all && !rewrite && steadyPrinterCanWait(pane, now)));
      const panes = owed
        .filter((entry) => !waiting.has(entry))
        .map(({ pane }) => ({ ...pane.terminalState((packed) => blockFile.append(packed), rewrite, compress, now), cwd: processCwd(pane.pid) }));
      blockFile.sync();
      return { panes, blockFile: blockFile.current, owesRound: waiting.size > 0 || live.some(({ pane }) => pane.hasUncompressedBlocks) };
    },
    heartbeat: () => null,
    fault: (params) => {
      if (!this.init.debugFaults) throw new ProtocolError('invalid_request', 'faults are only for servers started with HERDR_DEBUG_FAULTS=1');
      this.paneOf(params.paneUid);
      injectFault(params.fault);
      return null;
    },
    collect: async () => {
      if (!this.init.debugFaults) throw new ProtocolError('invalid_request', 'collect is only for servers started with HERDR_DEBUG_FAULTS=1');
      await this.quietTime.collect();
      return { heapUsedBytes: process.memoryUsage().heapUsed };
    },
    stats: () => {
      const bytesParsed = this.parsedBytes();
      return {
        panes: this.panes.size,
        bytesParsed,
        matchers: this.matcherPanes.size,
        heapUsedBytes: getHeapStatistics().used_heap_size,
        historyBytes: [...this.panes.values()].reduce((sum, { pane }) => sum + pane.historyBytes, 0),
      };
    },
  };
}
