/**
 * Prompts as turns (docs/protocol.md §13.7): each `agent.prompt` is a turn with an id,
 * answered at once as a receipt. An agent takes one turn at a time: a prompt to an agent
 * that is working, blocked or still starting waits in the agent's queue, and the next one
 * is written when it is idle again, in order; nothing is ever typed into a running turn.
 * The agent's shard submits it as that CLI takes prompts (workers/agents/prompt-submission.ts):
 * typed, seen, entered, and taken (`pane.prompt_accepted`: its state moved or its input box
 * let go of the text). From there the turn follows the agent's state after the Enter: `started`
 * (`pane.turn_started`) when it left its state, `finished` (`pane.turn_finished` with the
 * outcome: idle, done, blocked, or exited when its agent left) when it settled. A prompt the
 * agent did not take, or that moved nothing within its stall window, ends `stalled`. Queued turns
 * of an agent that leaves its pane fail `exited` and are never typed into its successor.
 * A client key makes a retry return the same turn without writing anything.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { SubmitResult } from '../../protocol/thread.js';
import { TURN_EVENTS, type TurnEventName, type TurnInfo, type TurnOutcome, type TurnState } from '../../protocol/turns.js';
import type { EventHub, LoggedEvent } from '../event-hub.js';
import { currentPaneIds, paneIds, paneMeta, paneRef, withCurrentView } from '../ids.js';
import type { PaneOperations } from '../operations/panes.js';
import type { PaneRecord, Registry } from '../registry.js';
import { agentStatus } from './agent-status.js';
import { type ResolvedAgent, instanceOf } from './occupants.js';

/** Finished turns kept for agent.turn.get and for client keys (the oldest go first). */
const KEPT_FINISHED = 10_000;
const TEXT_SHOWN = 200;

export interface TurnRecord {
  readonly id: string;
  readonly pane: PaneRecord;
  readonly instance: string;
  readonly text: string;
  readonly key: string | undefined;
  readonly stallMs: number;
  state: TurnState;
  outcome: TurnOutcome | undefined;
  readonly createdAt: number;
  sentAt: number | undefined;
  /** When the typed text showed on the agent's screen. */
  echoedAt: number | undefined;
  /** When the agent took the prompt: its state moved, or its input box let go of the text after Enter. */
  acceptedAt: number | undefined;
  /** How many Enters the submission took (more than one: the CLI lost the first). */
  enters: number | undefined;
  /** The screen lines that show where a prompt that did not take was left. */
  evidence: string[] | undefined;
  startedAt: number | undefined;
  finishedAt: number | undefined;
  /** The shard's count of the agent's turns to working or blocked at the Enter: the turn starts with the next one. */
  busyAtEnter: number;
  /** performance.now() at the write, for its duration. */
  writtenAt: number;
}

/** A queued turn as the session file keeps it (with its pane; the occupant is the pane's saved one). */
export interface SavedTurn {
  id: string;
  text: string;
  key?: string | undefined;
  stallMs: number;
  createdAt: number;
}

export interface TurnParts {
  registry: Registry;
  events: EventHub;
  panes: PaneOperations;
}

export class TurnBook {
  private nextId = 1;
  private readonly turns = new Map<string, TurnRecord>();
  private readonly finishedOrder: string[] = [];
  /** Per pane uid: turns waiting to be written, next first. */
  private readonly queues = new Map<number, TurnRecord[]>();
  /** Per pane uid: the turn written and not finished. */
  private readonly inFlight = new Map<number, TurnRecord>();
  /** Per pane uid: a write under way (the next turn waits for it). */
  private readonly writing = new Set<number>();
  private readonly keys = new Map<string, TurnRecord>();

  constructor(private readonly parts: TurnParts) {
    parts.events.listen((event) => this.heard(event));
  }

  /**
   * A prompt for `agent`: the turn a client key already names, or a new one, queued, and sent
   * at once when the agent is ready (`sent`: its submission began; the receipt does not wait for it).
   */
  prompt(agent: ResolvedAgent, text: string, options: { key: string | undefined; stallMs: number }): { turn: TurnRecord; fresh: boolean } {
    const keyed = options.key === undefined ? undefined : this.keys.get(keyOf(agent.instanceId, options.key));
    if (keyed) return { turn: keyed, fresh: false };
    const turn = this.enter(agent.pane, agent.instanceId, { id: `t${this.nextId++}`, text, key: options.key, stallMs: options.stallMs, createdAt: Date.now() });
    const queue = this.queues.get(agent.pane.uid) ?? [];
    queue.push(turn);
    this.queues.set(agent.pane.uid, queue);
    this.counted(agent.pane);
    this.pump(agent.pane);
    if (turn.state === 'queued') this.publish('pane.prompt_queued', turn);
    return { turn, fresh: true };
  }

  /** What a session snapshot keeps: each pane's queued turns, and where turn ids go on. */
  saved(paneUid: number): SavedTurn[] | undefined {
    const queue = this.queues.get(paneUid);
    if (!queue?.length) return undefined;
    return queue.map((turn) => ({ id: turn.id, text: turn.text, key: turn.key, stallMs: turn.stallMs, createdAt: turn.createdAt }));
  }

  get nextTurnId(): number {
    return this.nextId;
  }

  /** Turn ids go on from a restored session's: never one a client saw before the restart. */
  continueIdsFrom(nextTurnId: number): void {
    this.nextId = Math.max(this.nextId, nextTurnId);
  }

  /**
   * A restored pane's queue, for the occupant it had (`instance`): written when that agent is back
   * and idle, failed `exited` at once or when it does not come back.
   */
  restore(pane: PaneRecord, instance: string, saved: readonly SavedTurn[]): void {
    const queue = this.queues.get(pane.uid) ?? [];
    for (const entry of saved) if (!this.turns.has(entry.id)) queue.push(this.enter(pane, instance, entry));
    if (queue.length > 0) this.queues.set(pane.uid, queue);
    this.counted(pane);
    this.pump(pane);
  }

  /** The pane's occupant may have gone without an event (a restored agent that never came back): look again. */
  recheck(pane: PaneRecord): void {
    if (this.queues.has(pane.uid)) this.pump(pane);
  }

  get(id: string): TurnRecord {
    const turn = this.turns.get(id);
    if (!turn) throw new ProtocolError('turn_not_found', `no turn ${id}`);
    return turn;
  }

  queued(pane: PaneRecord): TurnRecord[] {
    return [...(this.queues.get(pane.uid) ?? [])];
  }

  cancel(id: string): TurnRecord {
    const turn = this.get(id);
    const queue = this.queues.get(turn.pane.uid) ?? [];
    const at = queue.indexOf(turn);
    if (turn.state !== 'queued' || at < 0) throw new ProtocolError('turn_not_queued', `turn ${id} is ${turn.state}, not queued: it cannot be taken back`);
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(turn.pane.uid);
    this.counted(turn.pane);
    this.finish(turn, 'cancelled', 'cancelled');
    return turn;
  }

  info(turn: TurnRecord): TurnInfo {
    const ids = paneIds(turn.pane);
    const queue = this.queues.get(turn.pane.uid);
    const position = turn.state === 'queued' && queue ? queue.indexOf(turn) : -1;
    return withCurrentView<TurnInfo>(
      {
        turn_id: turn.id,
        pane_id: ids.pane_id,
        workspace_id: ids.workspace_id,
        stable_id: ids.stable_id,
        agent_instance_id: turn.instance,
        state: turn.state,
        ...(turn.outcome === undefined ? {} : { outcome: turn.outcome }),
        ...(turn.key === undefined ? {} : { key: turn.key }),
        text: turn.text.slice(0, TEXT_SHOWN),
        ...(position >= 0 ? { position } : {}),
        created_at: turn.createdAt,
        ...(turn.sentAt === undefined ? {} : { sent_at: turn.sentAt }),
        ...(turn.echoedAt === undefined ? {} : { echoed_at: turn.echoedAt }),
        ...(turn.acceptedAt === undefined ? {} : { accepted_at: turn.acceptedAt }),
        ...(turn.enters === undefined || turn.enters === 0 ? {} : { enters: turn.enters }),
        ...(turn.evidence === undefined ? {} : { evidence: turn.evidence }),
        ...(turn.startedAt === undefined ? {} : { started_at: turn.startedAt }),
        ...(turn.finishedAt === undefined ? {} : { finished_at: turn.finishedAt }),
        ...(turn.sentAt === undefined || turn.finishedAt === undefined || turn.state !== 'finished' ? {} : { duration_ms: Math.max(0, turn.finishedAt - turn.sentAt) }),
      },
      currentPaneIds(turn.pane),
    );
  }

  /**
   * Whether the agent can take its next prompt now: it is there, the same occupant, idle with
   * nothing written and unfinished. An agent whose state nothing describes (`unknown`, from no
   * source or a report that says so) cannot be followed: its prompts are written as they come,
   * as before turns, and each turn ends `stalled` after its window. One whose screen its rules
   * do not know yet (`unknown` from its screen: still starting) is waited for.
   */
  private ready(pane: PaneRecord, turn: TurnRecord): boolean {
    if (this.writing.has(pane.uid)) return false;
    if (pane.occupant.agent === undefined || instanceOf(pane) !== turn.instance) return false;
    if (pane.occupant.state === 'unknown') return pane.occupant.source !== 'screen';
    return pane.occupant.state === 'idle' && !this.inFlight.has(pane.uid);
  }

  /**
   * Sends the pane's next turn when its agent is ready; turns whose agent is gone fail instead.
   * A submission's end pumps again, and the queue is looked up afresh then: a prompt that came
   * meanwhile may have made a new one.
   */
  private pump(pane: PaneRecord): void {
    // A submission under way ends first (its end pumps again): turns end in the order they were sent.
    if (this.writing.has(pane.uid)) return;
    for (;;) {
      const queue = this.queues.get(pane.uid);
      const turn = queue?.[0];
      if (!queue || !turn) return;
      if (!this.stillThere(turn)) {
        this.shift(pane, queue);
        this.finish(turn, 'failed', 'exited');
        continue;
      }
      if (!this.ready(pane, turn)) return;
      this.shift(pane, queue);
      void this.write(turn).finally(() => this.pump(pane));
      return;
    }
  }

  /** Takes the queue's first turn off; an emptied queue is forgotten. */
  private shift(pane: PaneRecord, queue: TurnRecord[]): void {
    queue.shift();
    if (queue.length === 0 && this.queues.get(pane.uid) === queue) this.queues.delete(pane.uid);
    this.counted(pane);
  }

  /** A new queued turn, known by its id and its client key (not yet in a queue). */
  private enter(pane: PaneRecord, instance: string, fields: SavedTurn): TurnRecord {
    const turn: TurnRecord = {
      ...fields,
      key: fields.key,
      pane,
      instance,
      state: 'queued',
      outcome: undefined,
      sentAt: undefined,
      echoedAt: undefined,
      acceptedAt: undefined,
      enters: undefined,
      evidence: undefined,
      startedAt: undefined,
      finishedAt: undefined,
      busyAtEnter: 0,
      writtenAt: 0,
    };
    this.turns.set(turn.id, turn);
    if (turn.key !== undefined) this.keys.set(keyOf(instance, turn.key), turn);
    return turn;
  }

  /** The pane's count of queued prompts, as pane_info and agent_info show it. */
  private counted(pane: PaneRecord): void {
    pane.occupant.queuedPrompts = this.queues.get(pane.uid)?.length ?? 0;
  }

  /**
   * Submits the turn's prompt through the agent's shard, which types it, presses Enter as the
   * CLI takes it and says when (and whether) it took it. A prompt that did not take ends
   * `stalled` with the screen lines that show it; one that took follows the agent's state.
   */
  private async write(turn: TurnRecord): Promise<void> {
    const { pane } = turn;
    this.writing.add(pane.uid);
    turn.state = 'sent';
    turn.sentAt = Date.now();
    turn.writtenAt = performance.now();
    let result: SubmitResult;
    try {
      result = await this.parts.panes.submit(pane, turn.text, turn.stallMs);
    } catch {
      this.writing.delete(pane.uid);
      this.finish(turn, 'failed', 'exited');
      return;
    }
    this.writing.delete(pane.uid);
    turn.echoedAt = result.echoedAt;
    turn.enters = result.enters;
    turn.busyAtEnter = result.busyAtEnter;
    // Its agent left (the pane ended) before it took the prompt: never submitted.
    if (result.paneEnded || (!result.accepted && !this.stillThere(turn))) return this.finish(turn, 'failed', 'exited');
    if (!this.stillThere(turn)) return this.finish(turn, 'finished', 'exited');
    if (!result.accepted) {
      turn.evidence = result.evidence;
      this.finish(turn, 'finished', 'stalled');
      return;
    }
    this.inFlight.set(pane.uid, turn);
    this.accepted(turn, result.acceptedAt);
    if (result.acceptedBy === 'input') {
      // The shard waited the stall window (longer while the agent was busy on the CPU) for a state to follow.
      turn.evidence = ['the input box let go of the prompt, but the agent never left its state'];
      this.finish(turn, 'finished', 'stalled');
      return;
    }
    // What the agent did while the prompt was being submitted already belongs to this turn.
    this.progress(pane);
  }

  private stillThere(turn: TurnRecord): boolean {
    const pane = this.parts.registry.paneByUid(turn.pane.uid);
    return pane !== undefined && instanceOf(pane) === turn.instance;
  }

  /** Every event about a pane: its turn moves on, its queue may be written, its agent may be gone. */
  private heard(event: LoggedEvent): void {
    const paneUid = event.meta.paneUid;
    if (paneUid === undefined || TURN_EVENT_NAMES.has(event.line.event)) return;
    if (!this.inFlight.has(paneUid) && !this.queues.has(paneUid)) return;
    const pane = this.parts.registry.paneByUid(paneUid);
    if (!pane) return this.gone(paneUid);
    this.progress(pane);
    this.pump(pane);
  }

  private progress(pane: PaneRecord): void {
    const turn = this.inFlight.get(pane.uid);
    if (!turn) return;
    if (!this.stillThere(turn)) return this.finish(turn, 'finished', 'exited');
    // Work from before the Enter (a start-up flick reported late) is not this turn's; nor is an idle or
    // unknown screen before its work begins.
    if (pane.occupant.shardBusyCount <= turn.busyAtEnter) return;
    if (turn.state === 'sent') {
      turn.state = 'started';
      turn.startedAt = Date.now();
      this.publish('pane.turn_started', turn);
    }
    if (pane.occupant.state === 'idle') this.finish(turn, 'finished', agentStatus(pane) === 'done' ? 'done' : 'idle');
    else if (pane.occupant.state === 'blocked') this.finish(turn, 'finished', 'blocked');
  }

  /** The agent took the prompt: once per turn, before it started. */
  private accepted(turn: TurnRecord, at: number | undefined): void {
    if (turn.acceptedAt !== undefined || turn.finishedAt !== undefined) return;
    turn.acceptedAt = at ?? Date.now();
    this.publish('pane.prompt_accepted', turn);
  }

  /** The pane closed: its turn ends `exited`, its queue fails. */
  private gone(paneUid: number): void {
    const turn = this.inFlight.get(paneUid);
    if (turn) this.finish(turn, 'finished', 'exited');
    // A submission under way ends first, then its pump fails the queue.
    if (this.writing.has(paneUid)) return;
    for (const queued of this.queues.get(paneUid) ?? []) this.finish(queued, 'failed', 'exited');
    this.queues.delete(paneUid);
  }

  private finish(turn: TurnRecord, state: TurnState, outcome: TurnOutcome): void {
    if (this.inFlight.get(turn.pane.uid) === turn) this.inFlight.delete(turn.pane.uid);
    turn.state = state;
    turn.outcome = outcome;
    turn.finishedAt = Date.now();
    this.publish('pane.turn_finished', turn);
    this.finishedOrder.push(turn.id);
    while (this.finishedOrder.length > KEPT_FINISHED) this.forget(this.finishedOrder.shift() as string);
  }

  private forget(id: string): void {
    const turn = this.turns.get(id);
    this.turns.delete(id);
    if (turn?.key !== undefined) this.keys.delete(keyOf(turn.instance, turn.key));
  }

  /** After the event being handed out: a turn event never overtakes the state change it follows. */
  private publish(event: TurnEventName, turn: TurnRecord): void {
    const data = {
      ...paneRef(turn.pane),
      turn_id: turn.id,
      agent_instance_id: turn.instance,
      ...(event === 'pane.prompt_queued' ? { position: Math.max(0, this.queues.get(turn.pane.uid)?.indexOf(turn) ?? 0) } : {}),
      ...(event === 'pane.turn_finished' ? { outcome: turn.outcome as TurnOutcome } : {}),
      ...(event === 'pane.turn_finished' && turn.sentAt !== undefined ? { duration_ms: Math.round(performance.now() - turn.writtenAt) } : {}),
    };
    const meta = paneMeta(turn.pane);
    queueMicrotask(() => this.parts.events.publish({ event, data }, meta));
  }
}

const TURN_EVENT_NAMES = new Set<string>(TURN_EVENTS);

/** A client key is the client's for one occupant. */
function keyOf(instance: string, key: string): string {
  return `${instance}\u0000${key}`;
}
