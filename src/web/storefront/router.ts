// The storefront routes: each one a page handler over the storefront site (src/web/page.ts does the rest).
import { checkGiftCard, giftCardPage } from "./pages/gift-card.ts";
import express, { type Router } from "express";
import { NotFound } from "../../core/errors.ts";
import { webErrors, webRoute, type PageCaching } from "../page.ts";
import { accountPage, requestCode, requestOrderCode, signOut, verifyCode } from "./pages/account.ts";
import { revokeAppAction, shopperConsentAction, shopperConsentPage } from "./pages/connected-apps.ts";
import { defaultAddressAction, deleteAddressAction, saveAddressAction } from "./pages/address-book.ts";
import { addToCart, applyDiscount, cartPage, removeLine, updateLine } from "./pages/cart.ts";
import { categoryPage } from "./pages/category.ts";
import { checkoutPage, placeOrder } from "./pages/checkout.ts";
import { agentCheckoutPage, agentCheckoutSubmit } from "./pages/agent-checkout.ts";
import { HANDOFF_PATH } from "../../tools/checkout/handoff.ts";
import { homePage } from "./pages/home.ts";
import { infoPage } from "./pages/info.ts";
import { cancelOrder, changeAddress, requestReturn, type ActionState } from "./pages/order-actions.ts";
import { changeDelivery, swapVariant } from "./pages/order-changes.ts";
import { orderByNumber, orderPage } from "./pages/orders.ts";
import { payAgain, paymentPage } from "./pages/payment.ts";
import { productPage } from "./pages/product.ts";
import { searchPage } from "./pages/search.ts";
import { robotsTxt, sitemapXml } from "./pages/seo.ts";
import { servicePage, servicesPage } from "./pages/services.ts";
import { withdrawalConfirm, withdrawalPage, withdrawalReview } from "./pages/withdrawal.ts";
import type { StorefrontRequest, StorefrontSite } from "./site.ts";

export function storefrontRouter(site: StorefrontSite): Router {
  const router = express.Router();
  const slug = (web: StorefrontRequest) => String(web.req.params.slug);

  // Catalogue pages come from the page cache (src/web/storefront/page-cache.ts) while the catalogue is unchanged.
  // The front page starts the shop_session, also when its page comes from the cache.
  const startingSession: PageCaching<StorefrontRequest> = {
    serve: async (web, handler) => {
      await web.startSession();
      return site.pages.serve(web, handler);
    },
  };
  router.get("/", webRoute(site, homePage, startingSession));
  router.get("/search", webRoute(site, searchPage, site.pages));
  router.get("/categories/:slug", webRoute(site, (web) => categoryPage(web, slug(web)), site.pages));
  router.get("/products/:slug", webRoute(site, (web) => productPage(web, slug(web)), site.pages));

  router.get("/cart", webRoute(site, cartPage));
  router.post("/cart/add", webRoute(site, addToCart));
  router.post("/cart/update", webRoute(site, updateLine));
  router.post("/cart/remove", webRoute(site, removeLine));
  router.post("/cart/discount", webRoute(site, applyDiscount));
  router.get("/checkout", webRoute(site, checkoutPage));
  router.post("/checkout", webRoute(site, placeOrder));
  // The buyer's hand-off page of an agent's checkout session (UCP continue_url), opened by its signed link.
  router.get(`${HANDOFF_PATH}/:id`, webRoute(site, (web) => agentCheckoutPage(web, String(web.req.params.id))));
  router.post(`${HANDOFF_PATH}/:id`, webRoute(site, (web) => agentCheckoutSubmit(web, String(web.req.params.id))));
  router.get("/orders/number/:number", webRoute(site, (web) => orderByNumber(web, String(web.req.params.number))));
  router.get("/orders/:id", webRoute(site, (web) => orderPage(web, String(web.req.params.id))));
  const orderState = (web: StorefrontRequest) => async (state: ActionState, status: number) => orderPage(web, String(web.req.params.id), state, status);
  router.post("/orders/:id/cancel", webRoute(site, (web) => cancelOrder(web, orderState(web))));
  router.post("/orders/:id/address", webRoute(site, (web) => changeAddress(web, orderState(web))));
  router.post("/orders/:id/delivery", webRoute(site, (web) => changeDelivery(web, orderState(web))));
  router.post("/orders/:id/items", webRoute(site, (web) => swapVariant(web, orderState(web))));
  router.post("/orders/:id/return", webRoute(site, (web) => requestReturn(web, orderState(web))));
  router.get("/orders/:id/pay", webRoute(site, (web) => paymentPage(web, String(web.req.params.id))));
  router.post("/orders/:id/pay", webRoute(site, (web) => payAgain(web, String(web.req.params.id))));

  router.get("/fortryd", webRoute(site, withdrawalPage));
  router.post("/fortryd", webRoute(site, withdrawalReview));
  router.post("/fortryd/bekraeft", webRoute(site, withdrawalConfirm));

  router.get("/account", webRoute(site, accountPage));
  router.post("/account/login", webRoute(site, requestCode));
  router.post("/account/order", webRoute(site, requestOrderCode));
  router.post("/account/verify", webRoute(site, verifyCode));
  router.post("/account/logout", webRoute(site, signOut));
  // An app's OAuth authorization for the shopper (src/api/oauth sends the browser here), and disconnecting one.
  router.get("/account/oauth/:uid", webRoute(site, (web) => shopperConsentPage(web, String(web.req.params.uid))));
  router.post("/account/oauth/:uid", webRoute(site, (web) => shopperConsentAction(web, String(web.req.params.uid))));
  router.post("/account/apps/:id/revoke", webRoute(site, (web) => revokeAppAction(web, String(web.req.params.id))));
  router.post("/account/addresses", webRoute(site, (web) => saveAddressAction(web, (state) => accountPage(web, state))));
  router.post("/account/addresses/:id/default", webRoute(site, defaultAddressAction));
  router.post("/account/addresses/:id/delete", webRoute(site, deleteAddressAction));

  router.get("/gavekort", webRoute(site, giftCardPage));
  router.post("/gavekort", webRoute(site, checkGiftCard));
  router.get("/services", webRoute(site, servicesPage));
  router.get("/services/:slug", webRoute(site, (web) => servicePage(web, slug(web))));
  router.get("/info/:slug", webRoute(site, (web) => infoPage(web, slug(web))));
  router.get("/robots.txt", robotsTxt(site));
  router.get("/sitemap.xml", sitemapXml(site));

  router.use(webRoute(site, async (web) => {
    throw new NotFound(`No page ${web.req.path}.`);
  }));
  router.use(webErrors(site));
  return router;
}
