/**
 * A deterministic pseudo-random source for the bench's inputs, exact in
 * integers: SplitMix32 (Math.imul and unsigned shifts only, so no step ever
 * leaves 32 bits or rounds). The first bench drew words with a float LCG
 * whose products passed 2^53, so its "random" text was almost one word.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** An integer in [0, n), without modulo bias worth a bench's notice (n ≤ 2^16 in every use). */
  below(n: number): number {
    return Math.floor((this.next() / 0x1_0000_0000) * n);
  }

  /** An integer in [low, high]. */
  between(low: number, high: number): number {
    return low + this.below(high - low + 1);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** True `percent` times in a hundred. */
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
}
