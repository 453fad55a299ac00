// Request bodies for every door (REST, MCP, UCP, ACP, chat, session routes, the Stripe webhook): express's parsers with
// one guard on the raw bytes, so no door ever parses JSON nested deeper than MAX_BODY_DEPTH. Deeper values would reach
// recursive walks after the parser (zod, canonical JSON, idempotency hashes, the MCP SDK) and overflow their stack.
import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { MAX_DEPTH } from "../core/well-formed-input.ts";

/** Room for any envelope (JSON-RPC, a protocol's request) around a value of MAX_DEPTH, which tool inputs are held to. */
const MAX_BODY_DEPTH = MAX_DEPTH * 2;
/** The `type` of the error the parsers pass on for a body nested too deeply (httpError answers it with a 400). */
const TOO_DEEP = "entity.too.deep";

/** What a parser's `verify` hook gets: the request, and the raw body (decompressed) in the request's charset, if any. */
type Verify = (req: IncomingMessage, res: unknown, bytes: Buffer, encoding: string | null) => void;

interface Options {
  limit: string;
  /** Another check of the raw bytes, after the depth guard (UCP keeps them for its Content-Digest). */
  verify?: Verify;
}

/** JSON bodies (any content type, any JSON value unless `strict`), refused beyond MAX_BODY_DEPTH. */
export function jsonBody(options: Options & { strict?: boolean }): RequestHandler {
  return express.json({ limit: options.limit, strict: options.strict ?? false, type: () => true, verify: guarded(options.verify) });
}

/** The body as text, for doors that parse it themselves (the MCP doors), refused beyond MAX_BODY_DEPTH. */
export function textBody(options: Options): RequestHandler {
  return express.text({ limit: options.limit, type: () => true, verify: guarded(options.verify) });
}

/** The body as bytes, for a signed body (the Stripe webhook), refused beyond MAX_BODY_DEPTH. */
export function rawBody(options: Options): RequestHandler {
  return express.raw({ limit: options.limit, type: () => true, verify: guarded(options.verify) });
}

/** Whether a parser's error is the depth guard's. */
export function isTooDeep(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === TOO_DEEP;
}

function guarded(then: Verify | undefined): Verify {
  return (req, res, bytes, encoding) => {
    if (tooDeep(utf8(bytes, encoding), MAX_BODY_DEPTH)) {
      throw Object.assign(new Error(`The request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels.`), { status: 400, type: TOO_DEEP });
    }
    then?.(req, res, bytes, encoding);
  };
}

/** The bytes as UTF-8: as they are when they are UTF-8 (or ASCII-compatible), else decoded from the request's charset. */
function utf8(bytes: Buffer, encoding: string | null): Buffer {
  if (encoding === null || /^(utf-?8|us-ascii|ascii|latin1|iso-8859-1)$/i.test(encoding)) return bytes;
  try {
    return Buffer.from(new TextDecoder(encoding).decode(bytes), "utf8");
  } catch {
    // A charset Node cannot decode: the parser refuses it (415) after this hook.
    return bytes;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Whether the JSON text nests arrays and objects deeper than `max`, counted over its bytes outside strings. Strings are
 * skipped with indexOf, so a large upload (a base64 image) costs a native scan, not a JavaScript loop per byte.
 */
function tooDeep(bytes: Buffer, max: number): boolean {
  let depth = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte === QUOTE) {
      let end = at;
      for (;;) {
        end = bytes.indexOf(QUOTE, end + 1);
        // Unterminated: the parser refuses the body.
        if (end < 0) return false;
        let slashes = 0;
        while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
      at = end;
    } else if (OPENERS.has(byte)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(byte)) {
      depth--;
    }
  }
  return false;
}
