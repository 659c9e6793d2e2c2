import { constants as zlib, crc32, deflateRawSync } from 'node:zlib';

/**
 * Gzip for a page that is the same for every visitor but for a few short values (a form page's
 * CSRF token and fill-time note), without compressing the page on each request.
 *
 * The page's fixed text is deflated once, slot by slot; a request only writes its values as
 * "stored" (uncompressed) deflate blocks between the precompressed pieces and a CRC-32 over the
 * whole (RFC 1951 3.2.4, RFC 1952). A request then costs some microseconds instead of the ~0.6 ms
 * brotli took, and the body is about as small as gzip -9 of the whole page, because each piece is
 * compressed with everything before it as its dictionary. In that dictionary a slot is a run of
 * bytes 0x01, as long as the value that will stand there: a page never contains 0x01, so no
 * back-reference can reach into a slot, and every distance to the text before it is exact. That
 * is why the compiled form depends on the values' byte lengths (fixed in practice: a new length
 * compiles once more).
 */
export class GzipTemplate {
  /** The page's fixed text, split at the slots: one more piece than there are slots. */
  private readonly pieces: Buffer[];
  /** Which slot each gap between two pieces holds. */
  private readonly order: number[];
  private readonly compiled = new Map<string, Compiled>();

  /** `slots` are the placeholders the page contains, in any order; each may occur several times. */
  constructor(
    document: string,
    private readonly slots: string[],
  ) {
    if (document.includes(FILLER)) throw new Error('A gzip template cannot hold the byte 0x01');
    const pattern = new RegExp(slots.map((slot) => slot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    this.order = [...document.matchAll(pattern)].map((match) => slots.indexOf(match[0]));
    this.pieces = document.split(pattern).map((piece) => Buffer.from(piece, 'utf8'));
  }

  /** The page with `values[i]` in place of `slots[i]`, gzip-encoded. */
  gzip(values: string[]): Buffer {
    if (values.length !== this.slots.length) throw new Error(`${this.slots.length} values expected, got ${values.length}`);
    const filled = values.map((value) => Buffer.from(value, 'utf8'));
    if (filled.some((value) => value.length > 0xffff || value.includes(FILLER_BYTE))) throw new Error('A slot value must be under 64 KB and hold no byte 0x01');
    const compiled = this.compile(filled.map((value) => value.length));
    const parts: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let size = 0;
    // Empty pieces are skipped: node passes an empty buffer's null pointer to zlib, and zlib's
    // crc32(crc, NULL, 0) answers its initial value 0 instead of `crc`.
    const addCrc = (bytes: Buffer) => {
      if (bytes.length > 0) crc = crc32(bytes, crc);
    };
    this.pieces.forEach((piece, index) => {
      parts.push(compiled.deflated[index] as Buffer);
      addCrc(piece);
      size += piece.length;
      const slot = this.order[index];
      if (slot === undefined) return;
      const value = filled[slot] as Buffer;
      parts.push(storedBlockHeader(value.length), value);
      addCrc(value);
      size += value.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    parts.push(FINAL_EMPTY_BLOCK, trailer);
    return Buffer.concat(parts);
  }

  private compile(lengths: number[]): Compiled {
    const key = lengths.join(',');
    let compiled = this.compiled.get(key);
    if (compiled) return compiled;
    // What a decoder's window holds before each piece, with the slots as runs of 0x01.
    let before = Buffer.alloc(0);
    const deflated = this.pieces.map((piece, index) => {
      const dictionary = before.subarray(Math.max(0, before.length - WINDOW));
      // Z_SYNC_FLUSH ends the piece on a byte boundary without a final block, so that the next
      // stored block or piece can follow it directly.
      const output = deflateRawSync(piece, { level: 9, finishFlush: zlib.Z_SYNC_FLUSH, ...(dictionary.length > 0 ? { dictionary } : {}) });
      const slot = this.order[index];
      before = Buffer.concat([before, piece, slot === undefined ? Buffer.alloc(0) : Buffer.alloc(lengths[slot] ?? 0, FILLER_BYTE)]);
      return output;
    });
    compiled = { deflated };
    // A few lengths at most in practice; bounded all the same.
    if (this.compiled.size >= 8) this.compiled.clear();
    this.compiled.set(key, compiled);
    return compiled;
  }
}

interface Compiled {
  /** Each piece deflated with everything before it as its dictionary. */
  deflated: Buffer[];
}

const FILLER_BYTE = 0x01;
const FILLER = String.fromCharCode(FILLER_BYTE);
/** Deflate looks back at most 32 KB. */
const WINDOW = 32 * 1024;
/** ID1 ID2, CM=deflate, no flags, no mtime, XFL 0, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

/** A non-final stored block's header, on a byte boundary: BFINAL=0 BTYPE=00, LEN, NLEN. */
function storedBlockHeader(length: number): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt16LE(length, 1);
  header.writeUInt16LE(~length & 0xffff, 3);
  return header;
}
