// Every admin route past sign-in needs a live staff session: browsers without one go to the login page, scripts get
// 401. (The page helper then checks the CSRF token of every form post.)
import type { NextFunction, Request, Response } from "express";
import { noteCaller } from "../../http/request-facts.ts";
import { requestId, sendProblem } from "../../http/requests.ts";
import { ToolError } from "../../core/errors.ts";
import type { WebDeps } from "../deps.ts";

/** A browser navigation or form post (sent to the login page) rather than a script (answered 401). */
function wantsHtml(req: Request): boolean {
  return (req.headers.accept ?? "").includes("text/html");
}

export function requireStaff(deps: WebDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const signedIn = await deps.staff.signedIn(req.headers.cookie);
    if (signedIn) {
      res.locals.staff = signedIn;
      noteCaller(res, signedIn.caller);
      return next();
    }
    if (wantsHtml(req)) {
      const back = req.method === "GET" ? req.originalUrl : "/admin";
      res.set("Cache-Control", "no-store").redirect(303, `/admin/login?next=${encodeURIComponent(back)}`);
    } else {
      sendProblem(res, new ToolError(401, "unauthorized", "Unauthorized", "Sign in at /admin/login first."), requestId(req));
    }
  };
}
