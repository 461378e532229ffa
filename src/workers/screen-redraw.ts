/**
 * A pane's screen as escape sequences that redraw it in a fresh terminal of
 * the same size (`pane.stream`'s ack and resyncs). @xterm/addon-serialize
 * writes the contents, colours, alternate screen and most modes; what it
 * leaves out is added here from the emulator's state (emulator.ts names the
 * internals): the scroll region, cursor visibility, the mouse's report
 * encoding, and an absolute cursor position last (the addon's relative moves
 * are undone when it turns origin mode on, which homes the cursor).
 */
import serializeModule from '@xterm/addon-serialize';
import type { Emulator } from './emulator.js';
import { cursorHidden, mouseEncoding, scrollRegion } from './emulator.js';

const { SerializeAddon } = serializeModule;
type Serializer = InstanceType<typeof SerializeAddon>;

/** Loaded into a pane's emulator the first time it is streamed: panes nobody streams never carry it. */
const serializers = new WeakMap<Emulator, Serializer>();

const SGR_MOUSE = '\x1b[?1006h';

export function serializeScreen(term: Emulator): string {
  let serializer = serializers.get(term);
  if (!serializer) {
    serializer = new SerializeAddon();
    term.loadAddon(serializer);
    serializers.set(term, serializer);
  }
  // The screen only: history is read with pane.read, the emulator's own scrollback is a small working window.
  let text = serializer.serialize({ scrollback: 0 });
  const region = scrollRegion(term);
  if (region && (region.top !== 0 || region.bottom !== term.rows - 1)) text += `\x1b[${region.top + 1};${region.bottom + 1}r`;
  if (mouseEncoding(term) === 'SGR') text += SGR_MOUSE;
  const buffer = term.buffer.active;
  const row = term.modes.originMode && region ? buffer.cursorY - region.top : buffer.cursorY;
  text += `\x1b[${row + 1};${buffer.cursorX + 1}H`;
  if (cursorHidden(term)) text += '\x1b[?25l';
  return text;
}
