// Test-mode simulation routes of the UCP door (UCP_TEST_MODE=1 and UCP_SIMULATION_SECRET set; absent otherwise):
// POST /ucp/testing/simulate-shipping/{orderId} ships an order through orders.update_status, so its events fire.
import updateStatus from "../../tools/orders/update_status.ts";
import crypto from "node:crypto";
import type { Request, Response, Router } from "express";
import type { Config } from "../../core/config.ts";
import { toToolError } from "../../core/errors.ts";
import type { Caller } from "../../tools/context.ts";
import type { Executor } from "../../tools/executor.ts";

const SIMULATOR: Caller = { kind: "system", actor: "system:ucp-simulation", scopes: new Set(["orders:write"]) };

type Reply = (res: Response, status: number, code: string, content: string) => void;

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function mountSimulation(router: Router, config: Pick<Config, "ucpTestMode" | "ucpSimulationSecret">, executor: Executor, reply: Reply): void {
  const secret = config.ucpSimulationSecret;
  if (!config.ucpTestMode || !secret) return;
  router.post("/ucp/testing/simulate-shipping/:orderId", async (req: Request, res: Response) => {
    const given = req.headers["simulation-secret"];
    if (!sameSecret(Array.isArray(given) ? given[0] : given, secret)) return reply(res, 403, "forbidden", "The Simulation-Secret header is missing or wrong.");
    const orderId = String(req.params.orderId);
    try {
      await executor.call(updateStatus, { orderId, status: "shipped" }, { caller: SIMULATOR, door: "ucp" });
      res.status(200).type("json").send(JSON.stringify({ status: "shipped", order_id: orderId }));
    } catch (error) {
      const mapped = toToolError(error);
      reply(res, mapped.status, mapped.code, mapped.message);
    }
  });
}
