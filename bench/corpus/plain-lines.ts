/**
 * Corpus (a): plain printable lines as builds, tests and servers print them:
 * timestamped logs, compiler errors, test results, stack frames, git logs,
 * package-manager notes. Printable ASCII only; most lines fit 120 columns,
 * a few run past it and wrap, some are blank.
 */
import type { Prng } from './prng.js';
import { LEVELS, filePath, hex, identifier, words } from './vocabulary.js';

function timestamp(prng: Prng): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `2026-12-04T${pad(prng.below(24))}:${pad(prng.below(60))}:${pad(prng.below(60))}.${pad(prng.below(1000), 3)}Z`;
}

const LINES: Array<(prng: Prng) => string> = [
  (prng) => `${timestamp(prng)} ${prng.pick(LEVELS).padEnd(5)} [${identifier(prng)}] ${words(prng, prng.between(3, 12))} ${identifier(prng)}=${prng.below(100_000)}`,
  (prng) => `${filePath(prng)}(${prng.between(1, 2000)},${prng.between(1, 80)}): error TS${prng.between(2000, 7999)}: Argument of type '${identifier(prng)}' is not assignable to '${identifier(prng)}'.`,
  (prng) => `${prng.chance(85) ? 'ok' : 'not ok'} ${prng.between(1, 900)} - ${words(prng, prng.between(3, 9))} # time=${prng.below(5000)}.${prng.below(1000)}ms`,
  (prng) => `    at ${identifier(prng)} (/home/dev/${filePath(prng)}:${prng.between(1, 900)}:${prng.between(1, 80)})`,
  (prng) => `${hex(prng, 7)} ${words(prng, prng.between(3, 10))} (#${prng.between(100, 9999)})`,
  (prng) => `npm warn deprecated ${identifier(prng)}@${prng.below(10)}.${prng.below(30)}.${prng.below(20)}: ${words(prng, prng.between(4, 10))}`,
  (prng) => `  ${filePath(prng).padEnd(48)} | ${String(prng.below(400)).padStart(4)} ${'+'.repeat(prng.below(30))}${'-'.repeat(prng.below(20))}`,
  (prng) => `[${prng.between(1, 64)}/${prng.between(64, 128)}] Compiling ${identifier(prng)} v${prng.below(4)}.${prng.below(40)}.${prng.below(10)} (${filePath(prng)})`,
  (prng) => `${words(prng, prng.between(prng.chance(90) ? 4 : 20, prng.chance(90) ? 16 : 30))}`, // prose, now and then longer than a row
  () => '',
];

export function plainLines(prng: Prng, bytes: number): string {
  const lines: string[] = [];
  for (let size = 0; size < bytes; ) {
    const line = prng.pick(LINES)(prng);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}
