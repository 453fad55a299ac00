// The UCP-Agent request header: an RFC 8941 Dictionary (profile="https://…", optionally version="YYYY-MM-DD").
// The parser covers the dictionary grammar (strings, tokens, integers, decimals, booleans, byte sequences, inner lists,
// parameters) so a well-formed header never fails, and anything else is refused instead of guessed at.

export type BareItem = string | number | boolean | Uint8Array | { token: string };
export type Member = { item: BareItem | BareItem[]; params: Map<string, BareItem> };

export class StructuredFieldError extends Error {}

/** Parses an RFC 8941 Dictionary; throws StructuredFieldError on anything the grammar does not allow. */
export function parseDictionary(input: string): Map<string, Member> {
  const parser = new Parser(input);
  return parser.dictionary();
}

class Parser {
  private readonly text: string;
  private at = 0;

  constructor(text: string) {
    this.text = text;
  }

  dictionary(): Map<string, Member> {
    const out = new Map<string, Member>();
    this.skip(" ");
    if (this.at >= this.text.length) return out;
    for (;;) {
      const key = this.key();
      let member: Member;
      if (this.peek() === "=") {
        this.at++;
        member = this.member();
      } else {
        member = { item: true, params: this.params() };
      }
      out.set(key, member);
      this.skip(" \t");
      if (this.at >= this.text.length) return out;
      if (this.peek() !== ",") this.fail("expected ,");
      this.at++;
      this.skip(" \t");
      if (this.at >= this.text.length) this.fail("trailing comma");
    }
  }

  private member(): Member {
    if (this.peek() === "(") {
      this.at++;
      const items: BareItem[] = [];
      for (;;) {
        this.skip(" ");
        if (this.peek() === ")") {
          this.at++;
          return { item: items, params: this.params() };
        }
        items.push(this.bare());
        this.params();
        const next = this.peek();
        if (next !== " " && next !== ")") this.fail("bad inner list");
      }
    }
    const item = this.bare();
    return { item, params: this.params() };
  }

  private params(): Map<string, BareItem> {
    const params = new Map<string, BareItem>();
    while (this.peek() === ";") {
      this.at++;
      this.skip(" ");
      const key = this.key();
      let value: BareItem = true;
      if (this.peek() === "=") {
        this.at++;
        value = this.bare();
      }
      params.set(key, value);
    }
    return params;
  }

  private key(): string {
    const match = /^[a-z*][a-z0-9_\-.*]*/.exec(this.text.slice(this.at));
    if (!match) this.fail("bad key");
    this.at += match[0].length;
    return match[0];
  }

  private bare(): BareItem {
    const c = this.peek();
    if (c === '"') return this.string();
    if (c === ":") return this.bytes();
    if (c === "?") {
      const value = this.text.slice(this.at + 1, this.at + 2);
      if (value !== "0" && value !== "1") this.fail("bad boolean");
      this.at += 2;
      return value === "1";
    }
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    const token = /^[A-Za-z*][\x21\x23-\x27\x2a\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*/.exec(this.text.slice(this.at));
    if (!token) this.fail("bad item");
    this.at += token[0].length;
    return { token: token[0] };
  }

  private string(): string {
    this.at++;
    let out = "";
    for (;;) {
      const c = this.text[this.at++];
      if (c === undefined) this.fail("unterminated string");
      if (c === "\\") {
        const next = this.text[this.at++];
        if (next !== '"' && next !== "\\") this.fail("bad escape");
        out += next;
      } else if (c === '"') {
        return out;
      } else {
        const code = c.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) this.fail("bad string character");
        out += c;
      }
    }
  }

  private bytes(): Uint8Array {
    const end = this.text.indexOf(":", this.at + 1);
    if (end < 0) this.fail("unterminated byte sequence");
    const body = this.text.slice(this.at + 1, end);
    if (!/^[A-Za-z0-9+/=]*$/.test(body)) this.fail("bad byte sequence");
    this.at = end + 1;
    return Uint8Array.from(Buffer.from(body, "base64"));
  }

  private number(): number {
    const match = /^-?\d{1,15}(\.\d{1,3})?/.exec(this.text.slice(this.at));
    if (!match || (match[1] === undefined && match[0].replace("-", "").length > 15)) this.fail("bad number");
    this.at += match[0].length;
    return Number(match[0]);
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private skip(chars: string): void {
    while (this.at < this.text.length && chars.includes(this.text[this.at]!)) this.at++;
  }

  private fail(why: string): never {
    throw new StructuredFieldError(`${why} at position ${this.at}`);
  }
}

export interface UcpAgent {
  /** The platform's profile URL, when the header names one. */
  profile: string | null;
  /** The protocol version the agent asks for, when it says. */
  version: string | null;
}

/** Reads the UCP-Agent header; null when absent. Throws StructuredFieldError when it is malformed. */
export function readUcpAgent(header: string | undefined): UcpAgent | null {
  if (header === undefined) return null;
  if (header.length > 2048) throw new StructuredFieldError("header too long");
  const dictionary = parseDictionary(header);
  const member = dictionary.get("profile");
  const profile = member?.item;
  // The version may be its own member (version="…") or a parameter of the profile (profile="…"; version="…").
  const version = dictionary.get("version")?.item ?? member?.params.get("version");
  if (profile !== undefined && typeof profile !== "string") throw new StructuredFieldError("profile must be a string");
  if (version !== undefined && typeof version !== "string" && !(typeof version === "object" && "token" in version)) {
    throw new StructuredFieldError("version must be a string");
  }
  if (profile !== undefined) {
    let url: URL;
    try {
      url = new URL(profile);
    } catch {
      throw new StructuredFieldError("profile is not a URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new StructuredFieldError("profile must be an http(s) URL");
  }
  const versionText = version === undefined ? null : typeof version === "string" ? version : (version as { token: string }).token;
  return { profile: profile ?? null, version: versionText };
}
