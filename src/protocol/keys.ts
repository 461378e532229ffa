/**
 * Key names for `pane.send_keys` / `pane.send_input` (docs/protocol.md §7), as data.
 *
 * The main thread resolves names (so a bad key is answered before anything is
 * written); the shard picks `ss3` over `normal` while the pane's program has
 * enabled application cursor keys (DECCKM), which it alone can see.
 */
export interface ResolvedKey {
  /** Bytes to write normally. */
  normal: string;
  /** Bytes to write instead under application cursor mode, where they differ. */
  ss3?: string;
  /** The key in the kitty keyboard protocol, for a program that turned it on (src/workers/kitty-keyboard.ts). */
  kitty?: KittyKey;
}

/**
 * A key as the kitty keyboard protocol encodes it, `CSI code[;mods] u`: `escape` keys (Esc,
 * a modified letter) once the program asks to disambiguate (flag 1); `legacy` keys (Enter,
 * Tab, Backspace) and `text` keys (a printable character) only once it asks for every key
 * as an escape code (flag 8), else as always.
 */
export interface KittyKey {
  code: number;
  /** 1 + the modifier bits (shift 1, alt 2, ctrl 4): 3 is alt, 5 is ctrl. */
  mods?: number;
  kind: 'escape' | 'legacy' | 'text';
}

/** kitty keyboard flags the encoder honours: 1 disambiguate escape codes, 8 report all keys as escape codes. */
export const KITTY_DISAMBIGUATE = 1;
export const KITTY_ALL_KEYS = 8;

const ESC = '\x1b';

function cursorKey(final: string): ResolvedKey {
  return { normal: `${ESC}[${final}`, ss3: `${ESC}O${final}` };
}

function tildeKey(code: number): ResolvedKey {
  return { normal: `${ESC}[${code}~` };
}

/** Named keys, looked up lower-cased. */
const NAMED_KEYS: ReadonlyMap<string, ResolvedKey> = new Map<string, ResolvedKey>([
  ['enter', { normal: '\r', kitty: { code: 13, kind: 'legacy' } }],
  ['tab', { normal: '\t', kitty: { code: 9, kind: 'legacy' } }],
  ['esc', { normal: ESC, kitty: { code: 27, kind: 'escape' } }],
  ['escape', { normal: ESC, kitty: { code: 27, kind: 'escape' } }],
  ['backspace', { normal: '\x7f', kitty: { code: 127, kind: 'legacy' } }],
  ['space', { normal: ' ', kitty: { code: 32, kind: 'text' } }],
  ['up', cursorKey('A')],
  ['down', cursorKey('B')],
  ['right', cursorKey('C')],
  ['left', cursorKey('D')],
  ['home', cursorKey('H')],
  ['end', cursorKey('F')],
  ['insert', tildeKey(2)],
  ['delete', tildeKey(3)],
  ['pageup', tildeKey(5)],
  ['pagedown', tildeKey(6)],
  ['btab', { normal: `${ESC}[Z` }],
  ['shift+tab', { normal: `${ESC}[Z` }],
  ['f1', { normal: `${ESC}OP` }],
  ['f2', { normal: `${ESC}OQ` }],
  ['f3', { normal: `${ESC}OR` }],
  ['f4', { normal: `${ESC}OS` }],
  ['f5', tildeKey(15)],
  ['f6', tildeKey(17)],
  ['f7', tildeKey(18)],
  ['f8', tildeKey(19)],
  ['f9', tildeKey(20)],
  ['f10', tildeKey(21)],
  ['f11', tildeKey(23)],
  ['f12', tildeKey(24)],
]);

/** Control of a letter or of @ [ \ ] ^ _ (C-\ is 0x1c, `herdr pane attach`'s detach key). */
const CTRL_KEY = /^(?:c-|ctrl\+)([a-z@[\\\]^_])$/i;
const META_CHAR = /^(?:m-|alt\+)([\x20-\x7e])$/i;

/** Resolves one key name; `undefined` when it is not a key. */
export function resolveKey(raw: string): ResolvedKey | undefined {
  const name = raw.trim();
  const named = NAMED_KEYS.get(name.toLowerCase());
  if (named) return named;
  const ctrl = CTRL_KEY.exec(name);
  if (ctrl?.[1]) {
    const letter = ctrl[1].toLowerCase();
    return { normal: String.fromCharCode(letter.toUpperCase().charCodeAt(0) & 0x1f), kitty: { code: letter.charCodeAt(0), mods: 5, kind: 'escape' } };
  }
  const meta = META_CHAR.exec(name);
  if (meta?.[1]) return { normal: ESC + meta[1], kitty: { code: meta[1].charCodeAt(0), mods: 3, kind: 'escape' } };
  if (name.length === 1 && name.charCodeAt(0) < 0x80) return { normal: name, kitty: { code: name.charCodeAt(0), kind: 'text' } };
  return undefined;
}

/** The bytes of a resolved key for a pane in the given cursor mode and kitty keyboard flags (0: none pushed). */
export function keyBytes(key: ResolvedKey, applicationCursor: boolean, kittyFlags = 0): string {
  const kitty = key.kitty;
  if (kitty && kittyFlags !== 0) {
    const encoded = kitty.kind === 'escape' ? (kittyFlags & (KITTY_DISAMBIGUATE | KITTY_ALL_KEYS)) !== 0 : (kittyFlags & KITTY_ALL_KEYS) !== 0;
    if (encoded) return `${ESC}[${kitty.code}${kitty.mods === undefined ? '' : `;${kitty.mods}`}u`;
  }
  return applicationCursor && key.ss3 !== undefined ? key.ss3 : key.normal;
}
