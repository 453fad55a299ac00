// Every admin route past sign-in: a live staff session (else the login page, or 401 for scripts) and, on every
// state-changing request, the session's CSRF token.
import type { NextFunction, Request, Response } from "express";
import { requestId, sendProblem } from "../../api/http.ts";
import type { SignedInStaff } from "../../api/staff-auth.ts";
import { ToolError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { field, sendHtml, wantsHtml } from "./http.ts";
import { adminDocument } from "./layout.ts";

export class CsrfRefused extends ToolError {
  constructor() {
    super(403, "csrf_failed", "Forbidden", "The form's security token is missing or belongs to another session; reload the page and try again.");
  }
}

export function requireStaff(runtime: Runtime) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const signedIn = await runtime.staff.signedIn(req.headers.cookie);
    if (!signedIn) {
      if (wantsHtml(req)) {
        const back = req.method === "GET" ? req.originalUrl : "/admin";
        res.set("Cache-Control", "no-store").redirect(303, `/admin/login?next=${encodeURIComponent(back)}`);
      } else {
        sendProblem(res, new ToolError(401, "unauthorized", "Unauthorized", "Sign in at /admin/login first."), requestId(req));
      }
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      const token = field(req, "_csrf") || req.headers["x-csrf-token"];
      if (!runtime.staff.sessionCsrfValid(signedIn, token)) {
        const refusal = new CsrfRefused();
        if (wantsHtml(req)) {
          sendHtml(res, 403, adminDocument({ title: "Form expired", staff: signedIn }, `<h1>This form has expired</h1>\n<p>${refusal.message}</p>\n<p><a href="/admin">Back to the dashboard</a></p>`));
        } else {
          sendProblem(res, refusal, requestId(req));
        }
        return;
      }
    }
    res.locals.staff = signedIn;
    next();
  };
}

/** The signed-in staff user of a request that passed requireStaff. */
export function staffOf(res: Response): SignedInStaff {
  return res.locals.staff as SignedInStaff;
}
