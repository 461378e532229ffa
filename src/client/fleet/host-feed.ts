/**
 * One server of a fleet view (docs/remote.md): its panes, kept current by one
 * event subscription (the lists are read after it is acknowledged, so nothing
 * in between is missed). When the connection drops, the feed says so and
 * subscribes again with `since` the last seq it handed on, so no event is
 * lost or repeated; a server that cannot be reached is retried with backoff
 * (1 s, doubling to 30 s). Feeds do not wait on each other.
 */
import type { TypedEventLine } from '../../protocol/events.js';
import type { SubscriptionSpec } from '../../protocol/methods.js';
import { HerdrClient, HerdrError, type Subscription } from '../client.js';
import type { Dialer } from '../transport.js';
import { Fleet } from './fleet-model.js';

export const FLEET_SUBSCRIPTIONS: SubscriptionSpec[] = [
  // Lifecycle kinds every server of ours has had: one from before the event catalogue refuses
  // a whole list over one kind it lacks. Layout moves are no part of the fleet's picture.
  ...(['workspace.created', 'workspace.closed', 'workspace.focused', 'pane.created', 'pane.closed', 'pane.focused', 'pane.exited', 'pane.agent_detected', 'tab.created', 'tab.closed', 'tab.focused', 'tab.renamed'] as const).map((type) => ({ type })),
  { type: 'pane.agent_state_changed' },
  { type: 'pane.command_finished' },
  // Shells and programs no detector knows show whether they print instead of a state.
  { type: 'pane.output_activity' },
  // A prompt that waits shows at once; one written (turn_started) lowers the count at the next reload.
  { type: 'pane.prompt_queued' },
  { type: 'pane.turn_started' },
  { type: 'rule.fired' },
];

const RELOAD_MS = 1000;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** Loads `fleet` from the server's lists (agents' names from `agent.list`), and its blocked agents' questions from the approval inbox. */
export async function readFleet(client: HerdrClient, fleet: Fleet): Promise<void> {
  // A server from before the agent API answers without names.
  const [{ workspaces }, { panes }, { agents }] = await Promise.all([client.workspace.list(), client.pane.list(), client.agent.list({}).catch(() => ({ agents: [] }))]);
  fleet.load(workspaces, panes, agents);
  // A server from before the inbox answers without it: the rows keep their messages.
  if (fleet.anyBlocked) fleet.setApprovals((await client.approvals.list({}).catch(() => ({ approvals: [] }))).approvals);
}

export type FeedStatus =
  | { kind: 'connecting' }
  | { kind: 'live' }
  | { kind: 'unreachable'; message: string };

export interface FeedListener {
  /** The picture changed (rows, or the feed's status). */
  changed(feed: HostFeed): void;
  /** An event line, as it arrived (each once). */
  event?(feed: HostFeed, line: TypedEventLine): void;
}

export class HostFeed {
  readonly fleet: Fleet;
  status: FeedStatus = { kind: 'connecting' };
  /** The seq of the last event handed on: where a new subscription resumes. */
  lastSeq: number | undefined;
  readonly client: HerdrClient;
  private subscription: Subscription | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the last reload: the throttle must not stall when the wall clock steps back. */
  private lastReload = -Infinity;
  private stopped = false;

  /** `host` undefined: the local server. */
  constructor(
    readonly host: string | undefined,
    readonly dialer: Dialer,
    private readonly listener: FeedListener,
    private readonly subscriptions: SubscriptionSpec[] = FLEET_SUBSCRIPTIONS,
  ) {
    this.client = new HerdrClient({ dialer });
    this.fleet = new Fleet(host);
  }

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.reloadTimer);
    this.subscription?.close();
    this.client.close();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let subscription: Subscription | undefined;
    try {
      const options = this.lastSeq === undefined ? { id: 'cli:fleet' } : { id: 'cli:fleet', since: this.lastSeq };
      subscription = await this.client.subscribe(this.subscriptions, options);
      await this.reload();
    } catch (error) {
      subscription?.close();
      if (error instanceof HerdrError && error.code === 'events_lost') {
        // Gone too long: what it missed is no longer kept. Start over from the lists.
        this.lastSeq = undefined;
        return this.connect();
      }
      return this.unreachable(error instanceof Error ? error.message : String(error));
    }
    if (this.stopped) return subscription.close();
    this.subscription = subscription;
    this.retryMs = FIRST_RETRY_MS;
    this.setStatus({ kind: 'live' });
    for await (const line of subscription) {
      if (typeof line.seq === 'number') this.lastSeq = line.seq;
      this.listener.event?.(this, line);
      // Epoch time: a row's `since` is the server's agent_state_since, shown as an age, never waited on.
      const effect = this.fleet.apply(line, Date.now());
      if (effect.changed) this.listener.changed(this);
      if (effect.reload) this.reloadSoon();
    }
    if (!this.stopped) this.unreachable('the connection was lost');
  }

  private unreachable(message: string): void {
    if (this.stopped) return;
    this.setStatus({ kind: 'unreachable', message });
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  private setStatus(status: FeedStatus): void {
    this.status = status;
    this.listener.changed(this);
  }

  private async reload(): Promise<void> {
    this.lastReload = performance.now();
    await readFleet(this.client, this.fleet);
    this.listener.changed(this);
  }

  private reloadSoon(): void {
    if (this.reloadTimer) return;
    const wait = Math.max(0, this.lastReload + RELOAD_MS - performance.now());
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      // A failed reload means the connection went: the subscription's end says so.
      this.reload().catch(() => undefined);
    }, wait);
  }
}
