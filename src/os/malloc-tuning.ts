/**
 * glibc's malloc, tuned through our addon, native/malloc-tuning, built at
 * install: the server fixes the mmap threshold for the whole process
 * (shards included) at start; without it glibc raises the threshold after
 * every large buffer freed, and history blocks and output reads then come
 * from arenas that keep their memory (ARCHITECTURE.md, "Memory"). A shard
 * gone quiet after a burst gives the pages it freed back (`trimMalloc`).
 * The server runs without the addon (not Linux, or it did not build), only
 * with more memory.
 */
import { nativeAddon } from './native-addon.js';

/** Allocations from this size are mapped and unmapped on their own (glibc starts at 128 KB and raises it). Above the 64 KB a PTY read or a gathered parse takes: at 64 KB each of those was an mmap, page faults and an munmap, 0.04 → 0.07 CPU s per MB of a flood. */
const MMAP_THRESHOLD_BYTES = 256 * 1024;

interface MallocTuning {
  setMmapThreshold(bytes: number): boolean;
  trim(): boolean;
}

const addon = nativeAddon<MallocTuning>('malloc-tuning', 'malloc_tuning');

/** Whether the threshold was set. Call before the shards start allocating. */
export function tuneMalloc(): boolean {
  return addon()?.setMmapThreshold(MMAP_THRESHOLD_BYTES) ?? false;
}

/** Returns the whole free pages of every arena to the system (malloc_trim); false without the addon. */
export function trimMalloc(): boolean {
  const tuning = addon();
  // An addon built before trim existed has only setMmapThreshold.
  return typeof tuning?.trim === 'function' ? tuning.trim() : false;
}
