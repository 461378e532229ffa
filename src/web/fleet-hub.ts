/**
 * The fleet as every page of one `herdr web` sees it: one HostFeed per server
 * (the same event subscription and lists as `herdr watch`, plus
 * `pane.agent_status_changed` for `done`), shared by all pages, its rows sent
 * to them at most every 200 ms when something changed.
 */
import { FLEET_SUBSCRIPTIONS, type FeedStatus, HostFeed } from '../client/fleet/host-feed.js';
import type { FleetRow } from '../client/fleet/fleet-model.js';
import type { HostTarget } from '../client/transport.js';
import { NotificationWatch } from '../client/notification-watch.js';
import { type HostState, LOCAL_HOST, type RuleActivity, type ServerMessage, type TileRow } from './wire.js';

const WEB_SUBSCRIPTIONS = [...FLEET_SUBSCRIPTIONS, { type: 'pane.agent_status_changed' as const }];
const SEND_EVERY_MS = 200;

type FleetMessage = Extract<ServerMessage, { t: 'fleet' }>;
type NotificationMessage = Extract<ServerMessage, { t: 'notification' }>;

export class FleetHub {
  readonly feeds: HostFeed[];
  private readonly listeners = new Set<(message: FleetMessage | NotificationMessage) => void>();
  /** Each server's notifications (notification.show), passed to every page as they come. */
  private readonly notifications: NotificationWatch[];
  private latest: FleetMessage = { t: 'fleet', rows: [], hosts: [], rules: { fired: 0 } };
  private timer: NodeJS.Timeout | undefined;
  private lastSent = -Infinity;

  constructor(targets: readonly HostTarget[]) {
    this.feeds = targets.map((target) => new HostFeed(target.host, target.dialer, { changed: () => this.changed() }, WEB_SUBSCRIPTIONS));
    this.latest = this.build();
    this.notifications = targets.map(
      (target) =>
        new NotificationWatch(target.dialer, (notification) => {
          const message: NotificationMessage = { t: 'notification', host: target.host ?? LOCAL_HOST, notification };
          for (const listener of this.listeners) listener(message);
        }),
    );
  }

  start(): void {
    for (const feed of this.feeds) feed.start();
    for (const watch of this.notifications) watch.start();
  }

  stop(): void {
    clearTimeout(this.timer);
    for (const feed of this.feeds) feed.stop();
    for (const watch of this.notifications) watch.stop();
  }

  /** The feed of a host name (`local` or a `--host`); the first when none is named. */
  feed(host: string | undefined): HostFeed | undefined {
    if (host === undefined) return this.feeds[0];
    return this.feeds.find((feed) => (feed.host ?? LOCAL_HOST) === host);
  }

  hostNames(): string[] {
    return this.feeds.map((feed) => feed.host ?? LOCAL_HOST);
  }

  /** Calls `listener` with the rows now, then whenever they change, and with each notification; returns the unsubscribe. */
  listen(listener: (message: FleetMessage | NotificationMessage) => void): () => void {
    this.listeners.add(listener);
    listener(this.latest);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastSent + SEND_EVERY_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastSent = performance.now();
      this.latest = this.build();
      for (const listener of this.listeners) listener(this.latest);
    }, wait);
  }

  private build(): FleetMessage {
    const rows: TileRow[] = [];
    const hosts: HostState[] = [];
    const rules: RuleActivity = { fired: 0 };
    for (const feed of this.feeds) {
      const name = feed.host ?? LOCAL_HOST;
      hosts.push({ name, ...hostStatus(feed.status) });
      for (const row of feed.fleet.rows()) rows.push(tileRow(name, row));
      const activity = feed.fleet.rules;
      rules.fired += activity.fired;
      if (activity.last && (!rules.last || activity.last.at > rules.last.at)) rules.last = activity.last;
    }
    return { t: 'fleet', rows, hosts, rules };
  }
}

function hostStatus(status: FeedStatus): Omit<HostState, 'name'> {
  return status.kind === 'unreachable' ? { status: status.kind, message: status.message } : { status: status.kind };
}

function tileRow(host: string, row: FleetRow): TileRow {
  const tile: TileRow = {
    key: `${host}/${row.stableId}`,
    host,
    pane: row.stableId,
    workspace: row.workspaceId,
    workspaceLabel: row.workspaceLabel,
    workspaceNumber: row.workspaceNumber,
    order: row.order,
    state: row.state,
    status: row.status,
    since: row.since,
  };
  if (row.agent !== undefined) tile.agent = row.agent;
  if (row.name !== undefined) tile.name = row.name;
  if (row.lastExitCode !== undefined) tile.lastExitCode = row.lastExitCode;
  if (row.output.active) tile.outputActive = true;
  if (row.output.activeSince !== undefined) tile.outputActiveSince = row.output.activeSince;
  if (row.output.lastAt !== undefined) tile.lastOutputAt = row.output.lastAt;
  if (row.cwd !== undefined) tile.cwd = row.cwd;
  if (row.queued > 0) tile.queued = row.queued;
  const question = row.approval?.question ?? row.message;
  if (row.status === 'blocked' && question !== undefined) tile.question = question;
  return tile;
}
