/** Time and timers for the shard's scheduling pieces; tests drive them with a manual clock. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds on a monotonic scale of its own (not the epoch): for durations and deadlines only. */
  now(): number;
  /** Runs `task` after `ms`; a shard's timers never keep it alive. */
  after(ms: number, task: () => void): Timer;
  /** Runs `task` once the current turn of the event loop has done its I/O. */
  soon(task: () => void): void;
}

export const realClock: Clock = {
  // Monotonic: a wall clock stepped back would hold every deadline back as long.
  now: () => performance.now(),
  after(ms, task) {
    const timer = setTimeout(task, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  soon(task) {
    setImmediate(task);
  },
};
