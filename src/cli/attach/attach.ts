/**
 * `herdr pane attach`: a person at the pane. The pane's snapshot is drawn,
 * then its output shown as it comes (`pane.stream`), and every keystroke is
 * typed into it exactly as the terminal sent it (`pane.send_text` on one
 * kept-alive connection, so keys arrive in order), until the detach key; a
 * right click reaches the program only when the pane's `right_click` is `pane`.
 * notification.show's notifications reach the terminal as desktop notifications.
 * The pane is named by its stable id once attached: compact ids renumber
 * when other panes close, and keys must not land in another pane.
 */
import { StringDecoder } from 'node:string_decoder';
import { HerdrConnection } from '../../client/client.js';
import { PaneOutputStream } from '../../client/pane-output-stream.js';
import type { Dialer } from '../../client/transport.js';
import { hasRightButtonReport, withoutRightButtonReports } from '../../protocol/mouse-reports.js';
import { NotificationWatch } from '../../client/notification-watch.js';
import { AttachedScreen } from './attached-screen.js';
import { notificationSequence } from './terminal-notification.js';

/** Ctrl-\, as tmux's and docker's detach keys are control keys a program rarely wants. */
export const DEFAULT_DETACH_KEY = 'C-\\';

export interface AttachOptions {
  /** The pane's server: the local socket or a host over ssh. */
  dialer: Dialer;
  paneId: string;
  /** Show the pane, send it nothing (the detach key still detaches). */
  readOnly: boolean;
  /** The bytes of the detach key. */
  detachBytes: string;
  /** The pane takes this terminal's size, now and whenever it changes. */
  resize: boolean;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

export type AttachEnd =
  | { reason: 'detached'; paneId: string; cols: number; rows: number }
  | { reason: 'exited'; paneId: string; exitCode: number | undefined; signal: number | undefined }
  | { reason: 'lost'; paneId: string; message: string };

/** Attaches until the detach key, the pane's exit or the server's end. Throws (HerdrError, ConnectionError) when it cannot start. */
export async function attach(options: AttachOptions): Promise<AttachEnd> {
  const { input, output } = options;
  const connection = await HerdrConnection.open(options.dialer);
  let stream: PaneOutputStream;
  try {
    if (options.resize && output.isTTY) {
      await connection.call('pane.resize', { pane_id: options.paneId, cols: output.columns, rows: output.rows });
    }
    stream = await PaneOutputStream.open(options.dialer, options.paneId, { id: 'cli:pane:attach' });
  } catch (error) {
    connection.close();
    throw error;
  }
  // The stable id names the pane for the person too: the compact one may move while attached.
  const { stable_id: paneId } = stream.started;
  const shownId = paneId;
  const screen = new AttachedScreen(output);
  // notification.show's, passed to this terminal as a desktop notification (terminal-notification.ts).
  const notifications = new NotificationWatch(options.dialer, (notification) => screen.insert(notificationSequence(notification)));
  const decoder = new StringDecoder('utf8');
  let size = { cols: stream.started.cols, rows: stream.started.rows };

  return new Promise<AttachEnd>((resolve) => {
    let done = false;
    const finish = (end: AttachEnd) => {
      if (done) return;
      done = true;
      input.off('data', typed);
      output.off('resize', followSize);
      if (input.isTTY) input.setRawMode(false);
      input.pause();
      notifications.stop();
      stream.close();
      connection.close();
      screen.restore(endMessage(end, options, output));
      resolve(end);
    };
    const lost = (error: unknown) =>
      finish({ reason: 'lost', paneId: shownId, message: error instanceof Error ? error.message : String(error) });

    // Input goes out in order; a right click waits for the pane's setting, and what follows waits behind it.
    let typing = Promise.resolve();
    const forward = (text: string) => {
      typing = typing
        .then(async () => {
          const keep = !hasRightButtonReport(text) || (await rightClicksToPane(connection, paneId));
          const out = keep ? text : withoutRightButtonReports(text);
          if (out !== '') connection.call('pane.send_text', { pane_id: paneId, text: out }).catch(lost);
        })
        .catch(lost);
    };
    const typed = (chunk: Buffer) => {
      const at = chunk.indexOf(options.detachBytes, 0, 'latin1');
      const keys = at === -1 ? chunk : chunk.subarray(0, at);
      if (!options.readOnly && keys.length > 0) {
        // A character split between two reads is held until its last byte comes.
        const text = decoder.write(keys);
        if (text !== '') forward(text);
      }
      if (at !== -1) finish({ reason: 'detached', paneId: shownId, ...size });
    };
    const followSize = () => {
      connection.call('pane.resize', { pane_id: paneId, cols: output.columns, rows: output.rows }).catch(lost);
    };

    if (input.isTTY) input.setRawMode(true);
    input.on('data', typed);
    input.resume();
    if (options.resize) output.on('resize', followSize);
    screen.draw(stream.started.snapshot);
    notifications.start();

    void (async () => {
      for await (const line of stream) {
        if (done) return;
        switch (line.event) {
          case 'pane.output':
            if (!screen.write(Buffer.from(line.data.bytes, 'base64'))) await drained(output);
            break;
          case 'pane.resync':
            size = { cols: line.data.cols, rows: line.data.rows };
            if (!screen.draw(line.data.snapshot)) await drained(output);
            break;
          case 'pane.resized':
            size = { cols: line.data.cols, rows: line.data.rows };
            break;
          case 'pane.exited':
            return finish({ reason: 'exited', paneId: shownId, exitCode: line.data.exit_code, signal: line.data.signal });
        }
      }
      lost(new Error('the server closed the stream'));
    })().catch(lost);
  });
}

/**
 * Whether a person's right click goes to the pane's program: its `right_click` is `pane`
 * (`pane.input.set`, docs/protocol.md §5.6). Asked at each right click, so a change applies at
 * once; a server older than the setting (no field) gets every click, as attach always sent.
 */
async function rightClicksToPane(connection: HerdrConnection, paneId: string): Promise<boolean> {
  const { pane } = await connection.call('pane.get', { pane_id: paneId });
  return (pane.right_click ?? 'pane') === 'pane';
}

/** The line left on the terminal when the attach ends. */
export function endMessage(end: AttachEnd, options: Pick<AttachOptions, 'resize'>, output: NodeJS.WriteStream): string {
  switch (end.reason) {
    case 'detached': {
      const small = output.isTTY && (output.columns < end.cols || output.rows < end.rows);
      const hint = small && !options.resize
        ? ` (the pane is ${end.cols}×${end.rows}, this terminal ${output.columns}×${output.rows}: --resize makes the pane follow it)`
        : '';
      return `[detached from pane ${end.paneId}; it goes on running]${hint}`;
    }
    case 'exited':
      if (end.exitCode === undefined) return `[pane ${end.paneId} ended: its shard stopped]`;
      return `[pane ${end.paneId} exited with code ${end.exitCode}${end.signal === undefined ? '' : ` (signal ${end.signal})`}]`;
    case 'lost':
      return `[herdr: ${end.message}]`;
  }
}

function drained(output: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => output.once('drain', resolve));
}
