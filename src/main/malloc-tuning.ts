/**
 * Fixes glibc's mmap threshold for the whole server process (shards
 * included) through our one-function addon, native/malloc-tuning, built at
 * install. Without it glibc raises the threshold after every large buffer
 * freed, and history blocks and output reads then come from arenas that
 * keep their memory (ARCHITECTURE.md, "Memory"). The server runs without
 * the addon (not Linux, or it did not build), only with more memory.
 */
import { createRequire } from 'node:module';

/** Allocations from this size are mapped and unmapped on their own (glibc starts at 128 KB and raises it). Above the 64 KB a PTY read or a gathered parse takes: at 64 KB each of those was an mmap, page faults and an munmap, 0.04 → 0.07 CPU s per MB of a flood. */
const MMAP_THRESHOLD_BYTES = 256 * 1024;

interface MallocTuning {
  setMmapThreshold(bytes: number): boolean;
}

/** Whether the threshold was set. Call before the shards start allocating. */
export function tuneMalloc(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const addon = createRequire(import.meta.url)('../../../native/malloc-tuning/build/Release/malloc_tuning.node') as MallocTuning;
    return addon.setMmapThreshold(MMAP_THRESHOLD_BYTES);
  } catch {
    return false;
  }
}
