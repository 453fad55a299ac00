// First run: the console link /admin/setup?token=… and the form behind it that creates the first staff user.
import express, { type Request, type Response, type Router } from "express";
import { Invalid } from "../../core/errors.ts";
import { issueSetupToken, redeemSetupToken, SetupLinkInvalid, SETUP_TTL_MS, setupTokenUsable } from "../../core/staff/setup.ts";
import type { Runtime } from "../../runtime.ts";
import { field, sendHtml } from "./http.ts";
import { adminDocument } from "./layout.ts";
import { setupGoneHtml, setupHtml, type SetupView } from "./views/setup.ts";

/** The line(s) to print at start while the shop has no staff user; null once it has one. */
export async function setupAnnouncement(runtime: Runtime): Promise<string | null> {
  const token = await issueSetupToken(runtime.database.prisma, runtime.now());
  if (!token) return null;
  const url = `${runtime.config.publicBaseUrl}/admin/setup?token=${token}`;
  return `No staff user yet. Create the first one in your browser (this link works once, for ${SETUP_TTL_MS / 60_000} minutes):\n  ${url}`;
}

function render(runtime: Runtime, req: Request, res: Response, status: number, view: Omit<SetupView, "csrf">): void {
  const pre = runtime.staff.preSignIn(req.headers.cookie);
  if (pre.setCookie) res.append("Set-Cookie", pre.setCookie);
  sendHtml(res, status, adminDocument({ title: "Set up your shop" }, setupHtml({ ...view, csrf: pre.csrf })));
}

function gone(res: Response): void {
  sendHtml(res, 410, adminDocument({ title: "Setup link not valid" }, setupGoneHtml()));
}

export function setupRouter(runtime: Runtime): Router {
  const router = express.Router();
  const prisma = runtime.database.prisma;

  router.get("/admin/setup", async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    if (!(await setupTokenUsable(prisma, token, runtime.now()))) return gone(res);
    render(runtime, req, res, 200, { token });
  });

  router.post("/admin/setup", async (req, res) => {
    const token = field(req, "token");
    const email = field(req, "email").slice(0, 254);
    const password = field(req, "password");
    if (!runtime.staff.preSignInValid(req.headers.cookie, field(req, "_csrf"))) {
      return render(runtime, req, res, 403, { token, email, error: "This form has expired. Please try again." });
    }
    if (password !== field(req, "password2")) return render(runtime, req, res, 400, { token, email, error: "The two passwords differ." });
    try {
      const staff = await redeemSetupToken(prisma, token, { email, password }, runtime.now());
      const setCookie = await runtime.staff.openFor(staff, { address: req.ip, userAgent: req.get("user-agent") });
      runtime.log.info("first staff user created", { staffId: staff.id });
      res.append("Set-Cookie", setCookie).redirect(303, "/admin");
    } catch (error) {
      if (error instanceof SetupLinkInvalid) return gone(res);
      if (error instanceof Invalid) return render(runtime, req, res, 400, { token, email, error: error.message });
      throw error;
    }
  });

  return router;
}
