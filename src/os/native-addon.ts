/**
 * Our small native addons (native/<dir>, built by scripts/build-native.js): each is loaded on
 * first use, and on another platform or without its build it is simply absent (its callers
 * fall back or say so).
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** A lazy loader for native/<dir>/build/Release/<file>.node; the loader answers undefined without it. */
export function nativeAddon<T>(dir: string, file: string): () => T | undefined {
  let loaded: T | null | undefined;
  return () => {
    if (loaded === undefined) {
      try {
        loaded = process.platform === 'linux' ? (load(`../../../native/${dir}/build/Release/${file}.node`) as T) : null;
      } catch {
        loaded = null;
      }
    }
    return loaded ?? undefined;
  };
}
