/** Option value parsers: a bad value is a usage error (exit 2) naming the value. */
import { InvalidArgumentError } from 'commander';

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got ${value}`);
  return Number(value);
}

export function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError(`expected a number of at least 1, got ${value}`);
  return n;
}

export function oneOf<T extends string>(...allowed: T[]): (value: string) => T {
  return (value) => {
    if (!(allowed as string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${allowed.join(', ')}, got ${value}`);
    }
    return value as T;
  };
}

/** A hook's seq: a whole number below 2^64, kept exact (nanosecond clocks are past 2^53). */
export function hookSeq(value: string): bigint {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) >= 2n ** 64n) {
    throw new InvalidArgumentError(`expected a whole number below 2^64, got ${value}`);
  }
  return BigInt(value);
}
