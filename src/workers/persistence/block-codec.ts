/**
 * History rows on disk: a block (history.ts) as one msgpackr record holding
 * its row bytes, row ends and wrap flags as binary, compressed with brotli at
 * quality 0 behind a one-byte tag. A screen's rows are packed the same way.
 *
 * Changed: blocks were deflated (level 1). During a 100-pane flood with
 * sessions on, zlib took ~12% of each shard's CPU (every full block is packed
 * once, and a flood fills thousands). On packed blocks of the bench's
 * corpora (best of 5 passes over 5 MB) brotli q0 with a 64 KB window packs
 * 326 MB/s, q1 195 MB/s, deflate level 1 121 MB/s, to 2.77×, 2.87× and 3.05×
 * smaller.
 * Blocks written before are still read: raw deflate never starts with the
 * tags' bits (block type 3 is reserved in deflate).
 *
 * A shard that is flooding stores its blocks uncompressed (RAW_TAG) and
 * compresses them in a later round once it is quiet (history.ts): most of a
 * flood's blocks are dropped by the history's capacity within seconds, and
 * packing each of them was still ~15% of a flooding shard's CPU.
 */
import { brotliCompressSync, brotliDecompressSync, constants, inflateRawSync } from 'node:zlib';
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

/** The first byte of a brotli-packed block: BFINAL 0, BTYPE 3, which no raw deflate stream starts with. */
const BROTLI_TAG = 0x06;
/** The first byte of an uncompressed block: BFINAL 1, BTYPE 3, likewise. */
const RAW_TAG = 0x07;

export function packRows(rows: PackedRows, compress = true): Buffer {
  const record = packr.pack({
    rows: rows.rows,
    bytes: rows.bytes,
    // Little-endian words, whatever the machine (it is the same machine in practice).
    ends: Buffer.from(Uint32Array.from(rows.ends).buffer),
    wrapped: rows.wrapped,
  });
  if (!compress) return Buffer.concat([Buffer.of(RAW_TAG), record]);
  const params = { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_LGWIN]: 16, [constants.BROTLI_PARAM_SIZE_HINT]: record.length };
  return Buffer.concat([Buffer.of(BROTLI_TAG), brotliCompressSync(record, { params })]);
}

function unpacked(data: Uint8Array): Buffer {
  const options = { maxOutputLength: MAX_UNPACKED_BYTES };
  if (data[0] === BROTLI_TAG) return brotliDecompressSync(data.subarray(1), options);
  if (data[0] === RAW_TAG) return Buffer.from(data.buffer, data.byteOffset + 1, data.length - 1);
  return inflateRawSync(data, options);
}

/** Throws on anything that is not a packed block. */
export function unpackRows(data: Uint8Array): PackedRows {
  const value = packr.unpack(unpacked(data)) as Partial<{ rows: unknown; bytes: unknown; ends: unknown; wrapped: unknown }>;
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
