/** How the flood scenarios name their figures: flood.ts names them so, the ratio chart finds them so. */

/** A flood scenario's id, `flood-<pane count at full size>`. */
export const FLOOD_ID = /^flood-(\d+)$/;

const cold = (isCold: boolean) => (isCold ? ', cold' : '');

/** Aggregate MB/s of corpus `label`'s flood. */
export function throughputName(label: string, isCold = false): string {
  return `throughput, ${label}${cold(isCold)}`;
}

/** Server CPU seconds per MB of corpus `label`'s flood. */
export function cpuPerMbName(label: string, isCold = false): string {
  return `server CPU per MB, ${label}${cold(isCold)}`;
}

/** A herdr server's CPU per MB as a multiple of the parse floor's plus the read floor's (the ceiling's). */
export function overFloorName(label: string, isCold = false): string {
  return `server CPU per MB ÷ (parse + read floor), ${label}${cold(isCold)}`;
}
