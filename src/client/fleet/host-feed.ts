/**
 * One server of a fleet view (docs/remote.md): its panes, kept current by one
 * event subscription (the lists are read after it is acknowledged, so nothing
 * in between is missed). When the connection drops, the feed says so and
 * subscribes again with `since` the last seq it handed on, so no event is
 * lost or repeated; a server that cannot be reached is retried with backoff
 * (1 s, doubling to 30 s; resuming-subscription.ts). Feeds do not wait on each other.
 */
import type { TypedEventLine } from '../../protocol/events.js';
import type { SubscriptionSpec } from '../../protocol/methods.js';
import { HerdrClient } from '../client.js';
import { ResumingSubscription } from '../resuming-subscription.js';
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
  readonly client: HerdrClient;
  private readonly subscription: ResumingSubscription;
  private reloadTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the last reload: the throttle must not stall when the wall clock steps back. */
  private lastReload = -Infinity;
  private stopped = false;

  /** `host` undefined: the local server. */
  constructor(
    readonly host: string | undefined,
    readonly dialer: Dialer,
    private readonly listener: FeedListener,
    subscriptions: SubscriptionSpec[] = FLEET_SUBSCRIPTIONS,
  ) {
    this.client = new HerdrClient({ dialer });
    this.fleet = new Fleet(host);
    this.subscription = new ResumingSubscription({
      open: (since) => this.client.subscribe(subscriptions, { id: 'cli:fleet', ...(since === undefined ? {} : { since }) }),
      // The lists once the subscription is acknowledged: nothing in between is missed.
      opened: () => this.reload(),
      line: (line) => {
        this.listener.event?.(this, line);
        // Epoch time: a row's `since` is the server's agent_state_since, shown as an age, never waited on.
        const effect = this.fleet.apply(line, Date.now());
        if (effect.changed) this.listener.changed(this);
        if (effect.reload) this.reloadSoon();
      },
      status: (status) => this.setStatus(status.kind === 'live' ? { kind: 'live' } : { kind: 'unreachable', message: status.message }),
    });
  }

  start(): void {
    this.subscription.start();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reloadTimer);
    this.subscription.stop();
    this.client.close();
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
    if (this.reloadTimer || this.stopped) return;
    const wait = Math.max(0, this.lastReload + RELOAD_MS - performance.now());
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      // A failed reload means the connection went: the subscription's end says so.
      this.reload().catch(() => undefined);
    }, wait);
  }
}
