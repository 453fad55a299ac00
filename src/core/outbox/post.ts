// One webhook POST: JSON body, the signer's headers, a timeout, no redirects followed, and the connected address
// checked by guardedLookup (so a name cannot be re-pointed at the shop's own network between check and connect).
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { guardedLookup, isPublicAddress } from "./address.ts";

export interface PostOptions {
  timeoutMs: number;
  allowLocal: boolean;
  signal?: AbortSignal;
}

/** POSTs `body` and resolves with the receiver's status code; rejects on a refused address, network error or timeout. */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!options.allowLocal && net.isIP(host) && !isPublicAddress(host)) {
    return Promise.reject(new Error(`${host} is a private or loopback address`));
  }
  const client = target.protocol === "https:" ? https : http;
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  return new Promise((resolve, reject) => {
    const request = client.request(target, {
      method: "POST",
      agent: false,
      lookup: guardedLookup(options.allowLocal),
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
