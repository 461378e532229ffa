/** Open waits and subscriptions, for `server.stats`: opening one gives back its own release, so no count is kept by hand. */
export type OpenKind = 'waits' | 'subscriptions';

export class OpenCounts {
  private readonly counts: Record<OpenKind, number> = { waits: 0, subscriptions: 0 };

  get(kind: OpenKind): number {
    return this.counts[kind];
  }

  /** Counts `n` more of `kind` until the returned release runs (once, however often it is called). */
  open(kind: OpenKind, n = 1): () => void {
    this.counts[kind] += n;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.counts[kind] -= n;
    };
  }
}
