// GET/POST /admin/login and POST /admin/logout: sign-in with throttling and one generic error, CSRF on both forms.
import express, { type Request, type Response, type Router } from "express";
import { RateLimited } from "../../core/errors.ts";
import { WrongCredentials } from "../../core/staff/sign-in.ts";
import type { Runtime } from "../../runtime.ts";
import { setFlash, takeFlash } from "./flash.ts";
import { requireStaff, staffOf } from "./guard.ts";
import { field, safeNext, sendHtml } from "./http.ts";
import { adminDocument } from "./layout.ts";
import { loginHtml, type LoginView } from "./views/login.ts";

function renderLogin(runtime: Runtime, req: Request, res: Response, status: number, view: Omit<LoginView, "csrf">): void {
  const pre = runtime.staff.preSignIn(req.headers.cookie);
  if (pre.setCookie) res.append("Set-Cookie", pre.setCookie);
  const flash = takeFlash(req, res, runtime.secret);
  sendHtml(res, status, adminDocument({ title: "Sign in", flash }, loginHtml({ ...view, csrf: pre.csrf })));
}

export function signInRouter(runtime: Runtime): Router {
  const router = express.Router();
  const { staff } = runtime;

  router.get("/admin/login", async (req, res) => {
    const next = safeNext(req.query.next);
    if (await staff.signedIn(req.headers.cookie)) return res.redirect(303, next);
    renderLogin(runtime, req, res, 200, { next });
  });

  router.post("/admin/login", async (req, res) => {
    const next = safeNext(field(req, "next"));
    const email = field(req, "email").slice(0, 254);
    if (!staff.preSignInValid(req.headers.cookie, field(req, "_csrf"))) {
      return renderLogin(runtime, req, res, 403, { next, email, error: "This form has expired. Please sign in again." });
    }
    try {
      const previous = await staff.signedIn(req.headers.cookie);
      const address = req.ip ?? "unknown";
      const { staff: user, setCookie } = await staff.signIn({ email, password: field(req, "password").slice(0, 1000), address, userAgent: req.get("user-agent") });
      if (previous) await staff.signOut(previous.sessionId);
      runtime.log.info("staff signed in", { staffId: user.id, address });
      res.append("Set-Cookie", setCookie).redirect(303, next);
    } catch (error) {
      if (error instanceof WrongCredentials) {
        runtime.log.warn("staff sign-in failed", { address: req.ip });
        return renderLogin(runtime, req, res, 401, { next, email, error: error.message });
      }
      if (error instanceof RateLimited) {
        const minutes = Math.ceil(error.retryAfterSeconds / 60);
        res.set("Retry-After", String(error.retryAfterSeconds));
        return renderLogin(runtime, req, res, 429, { next, email, error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` });
      }
      throw error;
    }
  });

  router.post("/admin/logout", requireStaff(runtime), async (_req, res) => {
    await staff.signOut(staffOf(res).sessionId);
    setFlash(res, runtime.secret, { kind: "ok", text: "You are signed out." });
    res.append("Set-Cookie", staff.clearedSessionCookie()).redirect(303, "/admin/login");
  });

  return router;
}
