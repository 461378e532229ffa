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
}

const ESC = '\x1b';

function cursorKey(final: string): ResolvedKey {
  return { normal: `${ESC}[${final}`, ss3: `${ESC}O${final}` };
}

function tildeKey(code: number): ResolvedKey {
  return { normal: `${ESC}[${code}~` };
}

/** Named keys, looked up lower-cased. */
const NAMED_KEYS: ReadonlyMap<string, ResolvedKey> = new Map<string, ResolvedKey>([
  ['enter', { normal: '\r' }],
  ['tab', { normal: '\t' }],
  ['esc', { normal: ESC }],
  ['escape', { normal: ESC }],
  ['backspace', { normal: '\x7f' }],
  ['space', { normal: ' ' }],
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
  if (ctrl?.[1]) return { normal: String.fromCharCode(ctrl[1].toUpperCase().charCodeAt(0) & 0x1f) };
  const meta = META_CHAR.exec(name);
  if (meta?.[1]) return { normal: ESC + meta[1] };
  if (name.length === 1 && name.charCodeAt(0) < 0x80) return { normal: name };
  return undefined;
}

/** The bytes of a resolved key for a pane in the given cursor mode. */
export function keyBytes(key: ResolvedKey, applicationCursor: boolean): string {
  return applicationCursor && key.ss3 !== undefined ? key.ss3 : key.normal;
}
