// The REST door: POST /api/v1/tools/<name> runs a tool, GET /api/v1/tools lists the catalogue.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { Invalid } from "../core/errors.ts";
import type { Executor, Invocation } from "../tools/executor.ts";
import { describeTool } from "../tools/describe.ts";
import { acceptsGzip } from "../http/gzip.ts";
import { jsonBody } from "../http/body.ts";
import { admit, requestId, sendAnswer, sendProblem, type Gate } from "../http/requests.ts";
import type { Form, ResultCache } from "../http/result-cache.ts";

export const BODY_LIMIT = "256kb";

export function restRouter(executor: Executor, gate: Gate, cache: ResultCache): Router {
  const router = express.Router();
  let catalogue: string | undefined;

  router.get("/api/v1/tools", (_req, res) => {
    catalogue ??= JSON.stringify({
      ok: true,
      result: { count: executor.registry.tools.length, tools: executor.registry.tools.map(describeTool) },
    });
    res.type("json").send(catalogue);
  });

  // A tool that takes uploads names its own larger limit; every other tool reads at most BODY_LIMIT.
  const json = (limit: string) => jsonBody({ limit });
  const standard = json(BODY_LIMIT);
  const larger = new Map(executor.registry.tools.flatMap((tool) => (tool.bodyLimit ? [[tool.name, json(tool.bodyLimit)] as const] : [])));
  const body = (req: Request, res: Response, next: NextFunction) => {
    const tool = executor.registry.get(String(req.params.name));
    (larger.get(tool?.name ?? "") ?? standard)(req, res, next);
  };

  router.post("/api/v1/tools/:name", body, async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      const caller = await admit(gate, req, res);
      const body: unknown = req.headers["content-length"] === "0" ? undefined : req.body;
      if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
        throw new Invalid("The request body must be a JSON object (use {} for a tool without inputs).", [
          { path: "(root)", message: "Expected a JSON object" },
        ]);
      }
      const call: Invocation = {
        name: String(req.params.name),
        input: body,
        caller,
        door: "rest",
        requestId: id,
        onSessionReplaced: (sessionId) => res.append("Set-Cookie", gate.sessionCookie(sessionId)),
      };
      const gzip = acceptsGzip(req.headers["accept-encoding"]);
      sendAnswer(res, await cache.render(call, "rest", restForm, gzip), gzip);
    } catch (error) {
      sendProblem(res, error, id, gate.log);
    }
  });

  return router;
}

/** A REST answer: `{"ok":true,"result":…}`. */
function restForm(result: unknown): Form<undefined> {
  return { text: `{"ok":true,"result":${JSON.stringify(result)}}`, value: undefined };
}
