/**
 * A pane program for the event-latency bench: every 150 ms it clears the
 * screen, waits 60 ms (so the match leaves the window), then prints
 * `TICK <epoch ms, to the microsecond>` — the moment the line is written.
 */
const tick = () => {
  process.stdout.write('\x1b[H\x1b[2J');
  setTimeout(() => process.stdout.write(`TICK ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`), 60);
};
setInterval(tick, 150);
