// The admin web under /admin: sign-in, first-run setup and the password pages are open, every other route needs a
// staff session; each route is a page handler of the admin site (src/web/page.ts does CSRF, rate limits and error pages).
import express, { type Router } from "express";
import { NotFound } from "../../core/errors.ts";
import { webRoute, type Outcome } from "../page.ts";
import { requireStaff } from "./guard.ts";
import { apiKeysPage, createKeyAction, revokeKeyAction } from "./pages/api-keys.ts";
import { createWebhookAction, webhookAction, webhookPage, webhooksPage } from "./pages/webhook-endpoints.ts";
import { supportPage, ticketAction, ticketPage } from "./pages/support.ts";
import { returnAction, returnPage, returnsPage } from "./pages/returns.ts";
import { creditAction, creditPage, refundTaskAction } from "./pages/credit.ts";
import { assistantPage } from "./pages/assistant.ts";
import { auditEntryPage, auditPage, revertAction } from "./pages/audit.ts";
import { categoriesPage, categoryPage, deleteCategoryAction, upsertCategoryAction } from "./pages/categories.ts";
import { contentPage, contentPagesPage, contentPageAction } from "./pages/content-pages.ts";
import { dashboardPage } from "./pages/dashboard.ts";
import { discountAction, discountsPage } from "./pages/discounts.ts";
import { marketingAction, marketingPage } from "./pages/marketing.ts";
import { orderPage } from "./pages/order.ts";
import { orderAction } from "./pages/order-actions.ts";
import { ordersPage } from "./pages/orders.ts";
import { newProductPage, productPage } from "./pages/product.ts";
import { createProductAction, deleteProductAction, productAction, updateProductAction, uploadImageAction } from "./pages/product-actions.ts";
import { productsPage } from "./pages/products.ts";
import { serviceAction, servicePage, servicesPage } from "./pages/services.ts";
import { settingsAction, settingsPage } from "./pages/settings.ts";
import { setupFirstStaff, setupPage } from "./pages/setup.ts";
import { forgotPage, passwordPage, requestResetAction, setPasswordAction } from "./pages/password.ts";
import { inviteAction, staffPage, staffUserAction, staffUserPage } from "./pages/staff.ts";
import { loginPage, signIn, signOut } from "./pages/sign-in.ts";
import { connectedAppsPage, consentAction, consentPage, revokeGrantAction } from "./pages/oauth.ts";
import type { AdminRequest, AdminSite } from "./site.ts";
import { imageUpload } from "./upload.ts";

export function adminRouter(site: AdminSite): Router {
  const router = express.Router();
  const route = (handler: (web: AdminRequest) => Promise<Outcome>) => webRoute(site, handler);
  const param = (web: AdminRequest, name: string) => String(web.req.params[name]);

  router.get("/admin/login", route(loginPage));
  router.post("/admin/login", route(signIn));
  router.get("/admin/setup", route(setupPage));
  router.post("/admin/setup", route(setupFirstStaff));
  router.get("/admin/password", route(passwordPage));
  router.post("/admin/password", route(setPasswordAction));
  router.get("/admin/password/forgot", route(forgotPage));
  router.post("/admin/password/forgot", route(requestResetAction));

  router.use("/admin", requireStaff(site.deps));
  router.post("/admin/logout", route(signOut));
  router.get("/admin", route(dashboardPage));

  router.get("/admin/orders", route(ordersPage));
  router.get("/admin/orders/:id", route((web) => orderPage(web, param(web, "id"))));
  router.post("/admin/orders/:id/:action", route((web) => orderAction(web, param(web, "id"), param(web, "action"))));

  router.get("/admin/products", route(productsPage));
  router.get("/admin/products/new", route((web) => newProductPage(web)));
  router.post("/admin/products/new", route(createProductAction));
  router.get("/admin/products/:slug", route((web) => productPage(web, param(web, "slug"))));
  router.post("/admin/products/:slug", route((web) => updateProductAction(web, param(web, "slug"))));
  router.post("/admin/products/:slug/delete", route((web) => deleteProductAction(web, param(web, "slug"))));
  // The one multipart form: multer reads it (staff only, after requireStaff); the page helper then checks its CSRF field.
  router.post("/admin/products/:slug/images/upload", imageUpload, route((web) => uploadImageAction(web, param(web, "slug"))));
  router.post("/admin/products/:slug/:action", route((web) => productAction(web, param(web, "slug"), param(web, "action"))));
  router.post("/admin/products/:slug/:action/:sub", route((web) => productAction(web, param(web, "slug"), `${param(web, "action")}/${param(web, "sub")}`)));

  router.get("/admin/categories", route(categoriesPage));
  router.post("/admin/categories", route(upsertCategoryAction));
  router.get("/admin/categories/:slug", route((web) => categoryPage(web, param(web, "slug"))));
  router.post("/admin/categories/:slug/delete", route((web) => deleteCategoryAction(web, param(web, "slug"))));

  router.get("/admin/discounts", route(discountsPage));
  router.post("/admin/discounts/:action", route((web) => discountAction(web, param(web, "action"))));

  router.get("/admin/pages", route(contentPagesPage));
  router.get("/admin/pages/:slug", route((web) => contentPage(web, param(web, "slug"))));
  router.post("/admin/pages/:action", route((web) => contentPageAction(web, param(web, "action"))));

  router.get("/admin/services", route(servicesPage));
  router.get("/admin/services/:slug", route((web) => servicePage(web, param(web, "slug"))));
  router.post("/admin/services/:action", route((web) => serviceAction(web, param(web, "action"))));

  router.get("/admin/settings", route(settingsPage));
  router.post("/admin/settings/:action", route((web) => settingsAction(web, param(web, "action"))));

  router.get("/admin/marketing", route(marketingPage));
  router.post("/admin/marketing/:action", route((web) => marketingAction(web, param(web, "action"))));

  router.get("/admin/audit", route(auditPage));
  router.get("/admin/audit/:id", route((web) => auditEntryPage(web, param(web, "id"))));
  router.post("/admin/audit/:id/revert", route((web) => revertAction(web, param(web, "id"))));

  router.get("/admin/oauth/:uid", route((web) => consentPage(web, param(web, "uid"))));
  router.post("/admin/oauth/:uid", route((web) => consentAction(web, param(web, "uid"))));
  router.get("/admin/apps", route(connectedAppsPage));
  router.post("/admin/apps/:id/revoke", route((web) => revokeGrantAction(web, param(web, "id"))));

  router.get("/admin/api-keys", route(apiKeysPage));
  router.post("/admin/api-keys", route(createKeyAction));
  router.post("/admin/api-keys/:id/revoke", route((web) => revokeKeyAction(web, param(web, "id"))));

  router.get("/admin/returns", route(returnsPage));
  router.get("/admin/returns/:id", route((web) => returnPage(web, param(web, "id"))));
  router.post("/admin/returns/:id/:action", route((web) => returnAction(web, param(web, "id"), param(web, "action"))));

  router.get("/admin/staff", route(staffPage));
  router.post("/admin/staff", route(inviteAction));
  router.get("/admin/staff/:id", route((web) => staffUserPage(web, param(web, "id"))));
  router.post("/admin/staff/:id/:action", route((web) => staffUserAction(web, param(web, "id"), param(web, "action"))));

  router.get("/admin/support", route(supportPage));
  router.get("/admin/support/:id", route((web) => ticketPage(web, param(web, "id"))));
  router.post("/admin/support/:id/:action", route((web) => ticketAction(web, param(web, "id"), param(web, "action"))));
  router.get("/admin/credit", route(creditPage));
  router.post("/admin/credit/refund-tasks/:id/:action", route((web) => refundTaskAction(web, param(web, "id"), param(web, "action"))));
  router.post("/admin/credit/:action", route((web) => creditAction(web, param(web, "action"))));
  router.get("/admin/webhooks", route(webhooksPage));
  router.post("/admin/webhooks", route(createWebhookAction));
  router.get("/admin/webhooks/:id", route((web) => webhookPage(web, param(web, "id"))));
  router.post("/admin/webhooks/:id/deliveries/:delivery/resend", route((web) => webhookAction(web, param(web, "id"), "resend", param(web, "delivery"))));
  router.post("/admin/webhooks/:id/:action", route((web) => webhookAction(web, param(web, "id"), param(web, "action"))));

  router.get("/admin/assistant", route(assistantPage));

  router.use("/admin", route(async (web) => {
    throw new NotFound(`There is no admin page ${web.req.path}.`);
  }));
  return router;
}
