/** Option value parsers: a bad value is a usage error (exit 2) naming the value. */
import { InvalidArgumentError } from 'commander';
import { resolveKey } from '../../protocol/keys.js';

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got ${value}`);
  return Number(value);
}

export function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError(`expected a number of at least 1, got ${value}`);
  return n;
}

/** A share strictly between 0 and 1 (`pane split --ratio`). */
export function fraction(value: string): number {
  const n = Number(value);
  if (!/^(0?\.\d+|0|1)$/.test(value.trim()) || !(n > 0 && n < 1)) throw new InvalidArgumentError(`expected a number strictly between 0 and 1, got ${value}`);
  return n;
}

/** A nice value a process may take without privileges: 0 (unchanged) to 19. */
export function niceValue(value: string): number {
  const n = nonNegativeInt(value);
  if (n > 19) throw new InvalidArgumentError(`expected a nice value from 0 to 19, got ${value}`);
  return n;
}

/** A parser that takes one of `allowed`; it carries them as `choices`, which completion offers. */
export function oneOf<T extends string>(...allowed: T[]): ((value: string) => T) & { choices: readonly T[] } {
  const parse = (value: string): T => {
    if (!(allowed as string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${allowed.join(', ')}, got ${value}`);
    }
    return value as T;
  };
  return Object.assign(parse, { choices: allowed });
}

/** A hook's seq: a whole number below 2^64, kept exact (nanosecond clocks are past 2^53). */
export function hookSeq(value: string): bigint {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) >= 2n ** 64n) {
    throw new InvalidArgumentError(`expected a whole number below 2^64, got ${value}`);
  }
  return BigInt(value);
}

/** A key named as `pane.send_keys` names keys (`C-g`, `F12`, `C-\`), as the bytes a terminal sends for it. */
export function keyName(value: string): string {
  const key = resolveKey(value);
  if (!key) throw new InvalidArgumentError(`expected a key name such as C-g, C-\\ or F12, got ${value}`);
  return key.normal;
}

/** A repeated `--env KEY=VALUE` into one map (split at the first `=`; a later KEY wins). */
export function envAssignment(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got ${value}`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** The key name meant by a common spelling `send-keys` does not take (`Ctrl-C`, `^C`, `Alt-x`, `Return`). */
function meantKey(value: string): string | undefined {
  const ctrl = /^(?:ctrl|control|ctl)[- ]?(.)$|^\^(.)$/i.exec(value);
  if (ctrl) return `C-${(ctrl[1] ?? ctrl[2] ?? '').toLowerCase()}`;
  const meta = /^(?:alt|meta|opt|option)[- ]?(.)$/i.exec(value);
  if (meta) return `M-${meta[1] ?? ''}`;
  if (/^return$/i.test(value)) return 'Enter';
  return undefined;
}

/** One of `send-keys`'s keys (repeatable): a bad one is a usage error that names the key meant. */
export function sendKey(value: string, previous: string[] = []): string[] {
  if (!resolveKey(value)) {
    const meant = meantKey(value);
    throw new InvalidArgumentError(`${value} is not a key${meant && resolveKey(meant) ? `: did you mean ${meant}?` : ''} (a character, Enter, Tab, Esc, Up, C-c, M-x, F1…F12)`);
  }
  return [...previous, value];
}
