// The public server-rendered content pages: /services, /services/<slug> and /info/<slug> (published only; 404 page otherwise).
import express, { type Request, type Response, type Router } from "express";
import { toToolError } from "../core/errors.ts";
import type { Runtime } from "../runtime.ts";
import { validLayout } from "../tools/pages/layout.ts";
import { publishedPage } from "../tools/pages/service.ts";
import { publishedService, publishedServices } from "../tools/services/service.ts";
import { bodyHtml, documentHtml, escapeHtml } from "./html.ts";
import { layoutHtml } from "./sections.ts";

export const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

function send(res: Response, status: number, title: string, main: string): void {
  res.status(status).set(SECURITY_HEADERS).type("html").send(documentHtml(title, main));
}

function notFound(res: Response): void {
  send(res, 404, "Siden findes ikke", `<h1>Siden findes ikke</h1>\n<p>Vi kunne ikke finde den side, du leder efter.</p>\n<p><a href="/services">Se vores ydelser</a></p>`);
}

/** The HTML answer for a failed page request: 404 and 400 pages for what the visitor asked, else a plain 500 page. */
export function sendErrorPage(res: Response, status: number): void {
  if (status === 404) return notFound(res);
  if (status >= 400 && status < 500) {
    return send(res, status, "Ugyldig adresse", `<h1>Ugyldig adresse</h1>\n<p>Adressen indeholder tegn, vi ikke kan læse.</p>\n<p><a href="/services">Se vores ydelser</a></p>`);
  }
  send(res, 500, "Der opstod en fejl", "<h1>Der opstod en fejl</h1>\n<p>Prøv igen om lidt.</p>");
}

/** Wraps a page handler: failures answer an error page (never a stack trace); unexpected ones are logged. */
function page(runtime: Runtime, handler: (req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response) => {
    try {
      await handler(req, res);
    } catch (error) {
      const mapped = toToolError(error);
      if (mapped.status >= 500) runtime.log.error("public page failed", { path: req.path, error: String(error) });
      sendErrorPage(res, mapped.status);
    }
  };
}

export function publicPagesRouter(runtime: Runtime): Router {
  const router = express.Router();
  const db = runtime.database.prisma;

  router.get("/services", page(runtime, async (_req, res) => {
    const services = await publishedServices(db);
    const items = services.map(
      (service) => `<li class="card">
<h2><a href="/services/${escapeHtml(service.slug)}">${escapeHtml(service.title)}</a></h2>
${service.shortDescription ? `<p>${escapeHtml(service.shortDescription)}</p>` : ""}
${service.priceString ? `<p class="price">${escapeHtml(service.priceString)}</p>` : ""}
</li>`,
    );
    const list = items.length ? `<ul class="card-list">\n${items.join("\n")}\n</ul>` : "<p>Der er ingen ydelser lige nu.</p>";
    send(res, 200, "Ydelser", `<h1>Ydelser</h1>\n${list}`);
  }));

  router.get("/services/:slug", page(runtime, async (req, res) => {
    const service = await publishedService(db, String(req.params.slug));
    if (!service) return notFound(res);
    const features = service.features.length
      ? `<h2>Det får du</h2>\n<ul>\n${service.features.map((feature) => `<li>${escapeHtml(feature)}</li>`).join("\n")}\n</ul>`
      : "";
    send(res, 200, service.title, `<article>
<h1>${escapeHtml(service.title)}</h1>
${service.heroImage ? `<img src="${escapeHtml(service.heroImage)}" alt="">` : ""}
${service.shortDescription ? `<p><strong>${escapeHtml(service.shortDescription)}</strong></p>` : ""}
${service.priceString ? `<p class="price">Pris: ${escapeHtml(service.priceString)}</p>` : ""}
${bodyHtml(service.body)}
${features}
<p><a href="/services">Alle ydelser</a></p>
</article>`);
  }));

  router.get("/info/:slug", page(runtime, async (req, res) => {
    const info = await publishedPage(db, String(req.params.slug));
    if (!info) return notFound(res);
    const layout = validLayout(info.layout);
    const content = layout ? layoutHtml(layout, runtime.services.catalog) : bodyHtml(info.body);
    send(res, 200, info.title, `<article>\n<h1>${escapeHtml(info.title)}</h1>\n${content}\n</article>`);
  }));

  return router;
}
