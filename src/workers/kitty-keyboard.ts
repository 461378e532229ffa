/**
 * The kitty keyboard protocol, terminal side (https://sw.kovidgoyal.net/kitty/keyboard-protocol/):
 * a program asks `CSI ? u`, and once it pushed flags (`CSI > flags u`) it is sent keys in the
 * protocol's unambiguous encoding. Some agent CLIs need it: without it gemini-cli cannot tell
 * an Enter typed right after text from a pasted newline, and takes it as one.
 *
 * Kept here: a stack of flags per screen (main and alternate, as the protocol asks), the
 * answers to queries, and the flags in force for the key encoder (protocol/keys.ts).
 * @xterm/headless 6.0 has none of it; its parser lets us add the four sequences.
 */
import type { Terminal } from '@xterm/headless';

/** Flags a program may set: the protocol's five (protocol/keys.ts encodes by 1 and 8; 2, 4 and 16 are kept and answered, not acted on). */
const KNOWN_FLAGS = 0b11111;
/** The protocol lets a terminal bound its stacks; the oldest entry goes when one is full. */
const MAX_STACK = 16;

export class KittyKeyboard {
  private readonly stacks = { normal: [] as number[], alternate: [] as number[] };

  constructor(private readonly term: Terminal, answer: (bytes: string) => void) {
    const parser = term.parser;
    const first = (params: (number | number[])[], fallback: number): number => {
      const value = params[0];
      return typeof value === 'number' && params.length > 0 ? value : fallback;
    };
    parser.registerCsiHandler({ prefix: '?', final: 'u' }, () => {
      answer(`\x1b[?${this.flags}u`);
      return true;
    });
    parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => {
      const stack = this.stack;
      if (stack.length >= MAX_STACK) stack.shift();
      stack.push(first(params, 0) & KNOWN_FLAGS);
      return true;
    });
    parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => {
      const stack = this.stack;
      stack.splice(Math.max(0, stack.length - Math.max(1, first(params, 1))));
      return true;
    });
    parser.registerCsiHandler({ prefix: '=', final: 'u' }, (params) => {
      const flags = first(params, 0) & KNOWN_FLAGS;
      const mode = typeof params[1] === 'number' ? params[1] : 1;
      const stack = this.stack;
      const current = stack.pop() ?? 0;
      stack.push(mode === 2 ? current | flags : mode === 3 ? current & ~flags : flags);
      return true;
    });
    // A full reset forgets what programs asked for, as it does every other mode.
    parser.registerEscHandler({ final: 'c' }, () => {
      this.stacks.normal.length = 0;
      this.stacks.alternate.length = 0;
      return false;
    });
  }

  /** The flags in force on the screen shown now (0: legacy keys). */
  get flags(): number {
    return this.stack[this.stack.length - 1] ?? 0;
  }

  private get stack(): number[] {
    return this.term.buffer.active.type === 'alternate' ? this.stacks.alternate : this.stacks.normal;
  }
}
