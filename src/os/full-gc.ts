/**
 * V8's full collection, reached at run time (`--expose-gc` set after start,
 * `gc` taken from a fresh context): the server is started as `herdr server`,
 * with no Node flags of ours. Used by the shards' quiet time and by the leak
 * tests' `debug.inspect`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full GC of this thread's isolate, or undefined where V8 refuses the flag. */
export function fullGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
