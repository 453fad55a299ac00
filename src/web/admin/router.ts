// The admin web under /admin: sign-in and first-run setup are open, everything else needs a staff session.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Runtime } from "../../runtime.ts";
import { escapeHtml } from "../html.ts";
import { takeFlash } from "./flash.ts";
import { requireStaff, staffOf } from "./guard.ts";
import { sendHtml } from "./http.ts";
import { adminDocument } from "./layout.ts";
import { setupRouter } from "./setup.ts";
import { signInRouter } from "./sign-in.ts";

export function adminRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.use("/admin", express.urlencoded({ extended: false, limit: "256kb", parameterLimit: 1000 }));
  router.use(signInRouter(runtime));
  router.use(setupRouter(runtime));
  router.use("/admin", requireStaff(runtime));

  router.get("/admin", (req, res) => {
    const staff = staffOf(res);
    const flash = takeFlash(req, res, runtime.secret);
    sendHtml(res, 200, adminDocument({ title: "Dashboard", staff, flash, section: "/admin" }, `<h1>Dashboard</h1>\n<p>Signed in as ${escapeHtml(staff.staff.email)}.</p>`));
  });

  router.use("/admin", (_req, res) => {
    sendHtml(res, 404, adminDocument({ title: "Not found", staff: staffOf(res) }, `<h1>Not found</h1>\n<p>There is no such admin page.</p>\n<p><a href="/admin">Back to the dashboard</a></p>`));
  });
  router.use("/admin", (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    runtime.log.error("admin page failed", { path: req.path, error: String(error) });
    sendHtml(res, 500, adminDocument({ title: "Error" }, `<h1>Something went wrong</h1>\n<p>The error was logged. Try again in a moment.</p>\n<p><a href="/admin">Back to the dashboard</a></p>`));
  });
  return router;
}
