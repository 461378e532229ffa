/**
 * An `events.subscribe` that outlives its connection: when the connection drops it
 * subscribes again with `since` the last seq it handed on, so no event is lost or repeated
 * while the server still keeps them; a server that cannot be reached is retried after 1 s,
 * doubling to 30 s. A server that no longer keeps what was missed (`events_lost`) is
 * followed from now on at once. What `herdr fleet`/`watch` (fleet/host-feed.ts), the
 * notifications of `watch`, `web` and `attach` (notification-watch.ts) and the MCP server's
 * blocked-agent messages (src/mcp/blocked-watch.ts) each keep one of.
 */
import type { TypedEventLine } from '../protocol/events.js';
import { HerdrError } from './errors.js';
import type { Subscription } from './subscription.js';

export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 30_000;

export type ResumingStatus =
  /** Subscribed; `back` after an absence. */
  | { kind: 'live'; back: boolean }
  /** Not subscribed, retrying; `first` for the first failure of an absence (said once, not at every retry). */
  | { kind: 'unreachable'; message: string; first: boolean };

export interface ResumingHandlers {
  /** Subscribes; `since` is the seq to resume after (undefined: from now). */
  open(since: number | undefined): Promise<Subscription>;
  /** After the subscription is acknowledged and before its events (a feed reads its lists here, so nothing in between is missed); a throw is a failed attempt. */
  opened?(): Promise<void>;
  line(line: TypedEventLine): void | Promise<void>;
  /** What to do when the server answers the subscription with an error other than `events_lost` (default: retry, from now on). */
  refused?(error: HerdrError): 'retry' | 'stop';
  status?(status: ResumingStatus): void;
}

export class ResumingSubscription {
  /** The seq of the last event handed on: where a new subscription resumes. */
  lastSeq: number | undefined;
  private subscription: Subscription | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  /** `unref`: waiting to retry does not keep the process alive. */
  constructor(
    private readonly handlers: ResumingHandlers,
    private readonly unref = false,
  ) {}

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.subscription?.close();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let subscription: Subscription | undefined;
    try {
      subscription = await this.handlers.open(this.lastSeq);
      await this.handlers.opened?.();
    } catch (error) {
      subscription?.close();
      if (error instanceof HerdrError) {
        if (error.code === 'events_lost') {
          // Gone too long: what it missed is no longer kept. Followed from now on.
          this.lastSeq = undefined;
          return this.connect();
        }
        // A server that refused `since` (restarted, its seqs begun again) is followed from now on.
        this.lastSeq = undefined;
        if ((this.handlers.refused?.(error) ?? 'retry') === 'stop') return;
      }
      return this.again(error instanceof Error ? error.message : String(error));
    }
    if (this.stopped) return subscription.close();
    this.subscription = subscription;
    this.handlers.status?.({ kind: 'live', back: this.retryMs > FIRST_RETRY_MS });
    this.retryMs = FIRST_RETRY_MS;
    for await (const line of subscription) {
      if (typeof line.seq === 'number') this.lastSeq = line.seq;
      await this.handlers.line(line);
    }
    this.again('the connection was lost');
  }

  private again(message: string): void {
    if (this.stopped) return;
    this.handlers.status?.({ kind: 'unreachable', message, first: this.retryMs === FIRST_RETRY_MS });
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    if (this.unref) this.retry.unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }
}
