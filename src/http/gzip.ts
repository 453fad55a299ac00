// gzip for cached answers. A cached answer is deflated once and left open (ended by a sync flush, not a final block);
// each response closes it with its own tail (the end of an MCP response, its `"id"` included) as a stored block and
// the gzip trailer, so a hit costs a CRC of the few tail bytes and one small copy, never zlib. The result is one
// ordinary gzip member (RFC 1952).
import zlib from "node:zlib";

/** Answers shorter than this go out as they are: a tiny answer gains next to nothing and would cost the client an inflate. */
export const MIN_GZIP_BYTES = 1024;

/** gzip header: deflate, no flags, no modification time, no extra flags, OS unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A stored block's length field is 16 bits: a longer tail (an absurd request id) is sent without compression. */
const MAX_TAIL = 0xffff;
const EMPTY = new Uint8Array(0);

/** An answer's gzip member up to its last block: header and deflated bytes, with the CRC-32 and length of what they hold. */
export interface OpenGzip {
  readonly head: Buffer;
  readonly crc: number;
  readonly size: number;
}

/** Deflates an answer for later closing; undefined when gzip would not make it at least 10 % smaller. */
export function openGzip(plain: Buffer): OpenGzip | undefined {
  const deflated = zlib.deflateRawSync(plain, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (HEADER.length + deflated.length + 13 > plain.length * 0.9) return undefined;
  return { head: Buffer.concat([HEADER, deflated]), crc: zlib.crc32(plain), size: plain.length };
}

/**
 * The complete gzip member of the answer followed by `tail` (sent as is), as one buffer: a copy of the small compressed
 * bytes is cheaper than writing two pieces. Undefined for a tail too long for one stored block.
 */
export function closeGzip(open: OpenGzip, tail: Uint8Array = EMPTY): Buffer | undefined {
  const length = tail.length;
  if (length > MAX_TAIL) return undefined;
  const { head, crc, size } = open;
  const out = Buffer.allocUnsafe(head.length + 5 + length + 8);
  head.copy(out, 0);
  let at = head.length;
  // A final stored block (BFINAL = 1, BTYPE = 00): the sync flush left the stream on a byte boundary.
  out[at] = 1;
  out.writeUInt16LE(length, at + 1);
  out.writeUInt16LE(~length & 0xffff, at + 3);
  at += 5;
  out.set(tail, at);
  out.writeUInt32LE(crc32(out, at, at + length, crc), at + length);
  out.writeUInt32LE((size + length) % 2 ** 32, at + length + 4);
  return out;
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** CRC-32 of bytes[start, end) continuing from `crc`, as zlib.crc32(bytes, crc): in JS for a short tail, cheaper than the call. */
function crc32(bytes: Buffer, start: number, end: number, crc: number): number {
  if (end - start > 64) return zlib.crc32(bytes.subarray(start, end), crc);
  let c = ~crc;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 256;

/**
 * Whether a request's Accept-Encoding admits gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` with a non-zero weight, or
 * else `*` with one. Remembered per header value: clients send the same few.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (typeof header !== "string" || header === "") return false;
  let verdict = verdicts.get(header);
  if (verdict === undefined) {
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdict = judge(header);
    verdicts.set(header, verdict);
  }
  return verdict;
}

function judge(header: string): boolean {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const coding = name.toLowerCase();
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(parameter);
      if (match) weight = Number(match[1]);
    }
    if (coding === "gzip" || coding === "x-gzip") gzip = Math.max(gzip ?? 0, weight);
    else if (coding === "*") any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}
