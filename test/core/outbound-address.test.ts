// The one outbound guard (src/core/outbox/address.ts) on its own: which addresses of both families are public, which
// names are local, what a URL is refused for, and what a lookup lets a connection use. The doors that use it are tested
// through HTTP in test/tools/webhooks/create.test.ts, test/tools/keys/set_acp.test.ts, test/api/ucp.test.ts and
// test/core/outbox-guard.test.ts.
import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { guardedLookup, isLocalName, isPublicAddress, receiverProblem, urlProblem, type Resolve } from "../../src/core/outbox/address.ts";

const PUBLIC = [
  "1.1.1.1", "8.8.8.8", "93.184.216.34", "185.15.59.224", "100.128.0.1", "172.32.0.1", "192.169.0.1",
  "2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:82a::200e",
  // IPv6 forms of public IPv4 addresses: mapped, compatible, NAT64, 6to4.
  "::ffff:1.1.1.1", "::ffff:808:808", "::8.8.8.8", "64:ff9b::1.1.1.1", "2002:808:808::1",
];
const NOT_PUBLIC = [
  "0.0.0.0", "10.0.0.1", "100.64.0.1", "127.0.0.1", "127.255.255.254", "169.254.169.254", "172.16.0.1", "172.31.255.255",
  "192.0.0.8", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "255.255.255.255",
  "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "100::1", "2001:db8::1", "3fff::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
  "2001:2::1", "5f00::1", "64:ff9b:1::1", "::ffff:0:808:808",
  // IPv6 forms of non-public IPv4 addresses.
  "::ffff:127.0.0.1", "::ffff:7f00:1", "::127.0.0.1", "::7f00:1", "::ffff:169.254.169.254", "64:ff9b::10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:a00:1::1",
  "not an address", "",
];

describe("the outbound guard", () => {
  it("takes public IPv4 and IPv6 addresses (also IPv6 forms of a public IPv4) for public", () => {
    expect(PUBLIC.filter((address) => !isPublicAddress(address))).toEqual([]);
  });

  it("refuses loopback, private, link-local, special-use and the IPv6 forms of such IPv4 addresses", () => {
    expect(NOT_PUBLIC.filter((address) => isPublicAddress(address))).toEqual([]);
  });

  it("treats localhost, *.localhost, mDNS, home and single-label names as local, trailing dots or not", () => {
    expect(["localhost", "localhost.", "LOCALHOST..", "shop.localhost", "printer.local", "nas.home.arpa", "db.internal", "erp", "erp."].filter((name) => !isLocalName(name))).toEqual([]);
    expect(["erp.example.dk", "erp.example.dk.", "localhost.example.dk", "hooks.local-shop.dk"].filter(isLocalName)).toEqual([]);
  });

  it("refuses a URL for its scheme, credentials, a local name or a non-public IP literal, however it is written", () => {
    for (const url of [
      "ftp://erp.example.dk/x", "https://user:pw@erp.example.dk/x", "not a url",
      "https://localhost/x", "https://localhost./x", "https://a.localhost/x", "http://127.1/x", "http://0x7f.1/x", "http://2130706433/x",
      "https://[::127.0.0.1]/x", "https://[::ffff:127.0.0.1]/x", "https://[64:ff9b::169.254.169.254]/x", "http://169.254.169.254/latest", "http://[fe80::1]/x",
    ]) {
      expect(urlProblem(url, false), url).not.toBeNull();
    }
    for (const url of ["https://1.1.1.1/hook", "https://8.8.8.8/", "https://[2606:4700:4700::1111]/hook", "https://[::ffff:1.1.1.1]/", "https://erp.example.dk./hook"]) {
      expect(urlProblem(url, false), url).toBeNull();
    }
    expect(urlProblem("http://127.0.0.1:8080/x", true)).toBeNull();
    expect(urlProblem("ftp://127.0.0.1/x", true)).not.toBeNull();
  });

  it("checks what a name resolves to at registration, and accepts a name that does not resolve (delivery checks again)", async () => {
    const dns: Record<string, LookupAddress[]> = {
      "erp.example.dk": [{ address: "1.1.1.1", family: 4 }, { address: "2606:4700:4700::1111", family: 6 }],
      "rebound.example.dk": [{ address: "1.1.1.1", family: 4 }, { address: "10.0.0.5", family: 4 }],
      "mapped.example.dk": [{ address: "::ffff:127.0.0.1", family: 6 }],
    };
    const resolve: Resolve = async (host) => dns[host] ?? Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
    expect(await receiverProblem("https://erp.example.dk/hook", false, resolve)).toBeNull();
    expect(await receiverProblem("https://rebound.example.dk/hook", false, resolve)).toMatch(/10\.0\.0\.5/);
    expect(await receiverProblem("https://mapped.example.dk/hook", false, resolve)).toMatch(/private or loopback/);
    expect(await receiverProblem("https://unknown.example.dk/hook", false, resolve)).toBeNull();
    expect(await receiverProblem("https://rebound.example.dk/hook", true, resolve)).toBeNull();
  });

  it("lets a connection use only the public addresses a name resolves to, and refuses a name with none", async () => {
    const resolve: Resolve = async (host) =>
      host === "mixed.example.dk"
        ? [{ address: "10.0.0.5", family: 4 }, { address: "1.1.1.1", family: 4 }, { address: "::1", family: 6 }]
        : [{ address: "127.0.0.1", family: 4 }, { address: "::ffff:10.0.0.1", family: 6 }];
    const lookup = (allowLocal: boolean, host: string) =>
      new Promise<{ error: NodeJS.ErrnoException | null; addresses: unknown }>((done) =>
        guardedLookup(allowLocal, resolve)(host, { all: true }, (error, addresses) => done({ error, addresses })));
    expect(await lookup(false, "mixed.example.dk")).toEqual({ error: null, addresses: [{ address: "1.1.1.1", family: 4 }] });
    const refused = await lookup(false, "local.example.dk");
    expect(refused.error).toMatchObject({ code: "EADDRNOTALLOWED", message: expect.stringMatching(/private or loopback/) });
    expect((await lookup(true, "local.example.dk")).addresses).toHaveLength(2);
  });
});
