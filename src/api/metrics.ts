// GET /metrics: the Prometheus exposition of this process, for a Bearer key with metrics:read (or `*`), or for anyone
// with METRICS_PUBLIC=1 (a scraper on a private network).
import type { Request, Response } from "express";
import { Forbidden, Unauthorized } from "../core/errors.ts";
import type { Metrics } from "../core/metrics.ts";
import { admit, requestId, sendProblem, type Gate } from "../http/requests.ts";
import { hasScope, METRICS_SCOPE } from "../tools/scopes.ts";

export function metricsHandler(metrics: Metrics, gate: Gate, open: boolean) {
  return async (req: Request, res: Response) => {
    try {
      const caller = await admit(gate, req, res);
      if (!open) {
        // A storefront cookie is no credential here: only a key is.
        if (caller.kind !== "key") throw new Unauthorized(`GET /metrics needs a Bearer API key with the scope "${METRICS_SCOPE}".`);
        if (!hasScope(caller.scopes, METRICS_SCOPE)) throw new Forbidden(`GET /metrics needs the scope "${METRICS_SCOPE}", which this key does not have.`);
      }
      const text = await metrics.text();
      res.set("Cache-Control", "no-store").type(metrics.contentType).send(text);
    } catch (error) {
      sendProblem(res, error, requestId(req), gate.log);
    }
  };
}
