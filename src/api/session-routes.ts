// The session routes, a door over the storefront session (src/http/session.ts): POST /api/v1/session (start or
// resume), POST /api/v1/session/login (e-mail a one-time code) and POST /api/v1/session/verify (sign in: the session
// moves to a new id and cookie).
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import { Invalid, Refused } from "../core/errors.ts";
import { illFormed } from "../core/well-formed-input.ts";
import { sessionCaller } from "../http/auth.ts";
import { jsonBody } from "../http/body.ts";
import { admit, requestId, sendProblem, type Gate } from "../http/requests.ts";
import type { SessionManager } from "../http/session.ts";
import type { SessionRef } from "../tools/context.ts";
import { fieldErrors, type Executor } from "../tools/executor.ts";
import requestLoginCode from "../tools/user/request_login_code.ts";
import verifyLoginCode from "../tools/user/verify_login_code.ts";
import { requestAddress } from "../http/address.ts";

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const hostile = illFormed(body);
  if (hostile.length) throw new Invalid("The request body holds values no route accepts.", hostile);
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new Invalid("The request body does not match the schema.", fieldErrors(parsed.error));
  return parsed.data;
}

/** The session routes: thin doors over user.request_login_code and user.verify_login_code; `gate` rate-limits them per address. */
export function sessionRouter(sessions: SessionManager, executor: Executor, gate: Gate): Router {
  const router = express.Router();
  const json = jsonBody({ limit: "16kb" });
  const route = (handler: (req: Request, res: Response, id: string) => Promise<{ status: number; result: unknown }>) => async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      await admit(gate, req, res);
      const { status, result } = await handler(req, res, id);
      res.status(status).type("json").send(JSON.stringify({ ok: true, result }));
    } catch (error) {
      sendProblem(res, error, id, gate.log);
    }
  };
  const asSession = (req: Request, session: SessionRef) => sessionCaller(session, requestAddress(req));

  /** Starts a session (sets the cookie) or returns the current one. */
  router.post("/api/v1/session", route(async (req, res) => {
    const { session, created } = await sessions.ensure(req, res);
    return { status: created ? 201 : 200, result: await sessions.view(session, created) };
  }));

  /** E-mails a 6-digit code (10 minutes, 5 attempts) when a customer has this e-mail; answers 202 either way. */
  router.post("/api/v1/session/login", json, route(async (req, res, id) => {
    const input = parse(requestLoginCode.input, req.body);
    const { session } = await sessions.ensure(req, res);
    const sent = await executor.call(requestLoginCode, input, { caller: asSession(req, session), door: "rest", requestId: id });
    return { status: 202, result: { ...sent, detail: "If a customer has this e-mail, a 6-digit code is on its way." } };
  }));

  /** Checks the code and signs the session in under a new id (a new cookie). */
  router.post("/api/v1/session/verify", json, route(async (req, res, id) => {
    const input = parse(verifyLoginCode.input, req.body);
    const session = await sessions.resolve(req);
    if (!session) throw new Refused("invalid_code", "No storefront session: request the code with POST /api/v1/session/login in the same session.");
    const signedIn = await executor.call(verifyLoginCode, input, {
      caller: asSession(req, session),
      door: "rest",
      requestId: id,
      onSessionReplaced: (next) => res.append("Set-Cookie", gate.sessionCookie(next)),
    });
    return { status: 200, result: { sessionId: signedIn.sessionId, created: false, customer: signedIn.customer } };
  }));

  return router;
}
