/**
 * History rows on disk: a block (history.ts) as one msgpackr record holding
 * its row bytes, row ends and wrap flags as binary, deflated (level 1: a
 * terminal's text shrinks several times for little CPU, and a block is
 * packed once). A screen's rows are packed the same way.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Packr } from 'msgpackr';

/** No packed block inflates past this (a block is at most 32 KB of rows; a screen 1000 rows). */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

const packr = new Packr({ useRecords: false });

/** Rows as history keeps them: UTF-8 bytes, per row the end of its plain text and of its SGR form, its wrap flag. */
export interface PackedRows {
  rows: number;
  bytes: Uint8Array;
  ends: Uint32Array;
  wrapped: Uint8Array;
}

export function packRows(rows: PackedRows): Buffer {
  return deflateRawSync(packr.pack({
    rows: rows.rows,
    bytes: rows.bytes,
    // Little-endian words, whatever the machine (it is the same machine in practice).
    ends: Buffer.from(Uint32Array.from(rows.ends).buffer),
    wrapped: rows.wrapped,
  }), { level: 1 });
}

/** Throws on anything that is not a packed block. */
export function unpackRows(data: Uint8Array): PackedRows {
  const value = packr.unpack(inflateRawSync(data, { maxOutputLength: MAX_UNPACKED_BYTES })) as Partial<{ rows: unknown; bytes: unknown; ends: unknown; wrapped: unknown }>;
  const { rows, bytes, ends, wrapped } = value;
  if (typeof rows !== 'number' || !(bytes instanceof Uint8Array) || !(ends instanceof Uint8Array) || !(wrapped instanceof Uint8Array)) {
    throw new Error('not a packed block of rows');
  }
  const words = new Uint32Array(Uint8Array.from(ends).buffer);
  if (words.length < rows * 2 || wrapped.length < rows || (rows > 0 && (words[rows * 2 - 1] ?? 0) > bytes.length)) {
    throw new Error('a packed block of rows does not add up');
  }
  return { rows, bytes, ends: words, wrapped };
}
