// One webhook POST: JSON body, the signer's headers, a timeout, no redirects followed, the URL checked by the outbound
// guard and the connected address checked by guardedLookup (so a name cannot be re-pointed at the shop's own network
// between check and connect).
import http from "node:http";
import https from "node:https";
import { guardedLookup, urlProblem, type Resolve, type Route } from "./address.ts";

export interface PostOptions {
  timeoutMs: number;
  allowLocal: boolean;
  signal?: AbortSignal;
  /** DNS for the receiver's name (dns.lookup unless a test stands in its own). */
  resolve?: Resolve;
  /** Where a connection to a checked address goes (the address itself unless a test routes it to a local receiver). */
  route?: Route;
}

/** POSTs `body` and resolves with the receiver's status code; rejects on a refused address, network error or timeout. */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<number> {
  const problem = urlProblem(url, options.allowLocal);
  if (problem) return Promise.reject(new Error(`The receiver URL ${problem}`));
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  return new Promise((resolve, reject) => {
    const request = client.request(target, {
      method: "POST",
      agent: false,
      lookup: guardedLookup(options.allowLocal, options.resolve, options.route),
      signal: AbortSignal.any(signals),
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "shop-webhooks/1", ...headers },
    });
    request.on("response", (response) => {
      // Only the status counts; the body is read and dropped so the socket can close.
      response.resume();
      response.on("error", () => undefined);
      resolve(response.statusCode ?? 0);
    });
    request.on("error", (error) => reject(signals[0]!.aborted ? new Error(`no answer within ${options.timeoutMs} ms`) : error));
    request.end(body);
  });
}
