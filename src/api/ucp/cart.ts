// The cart operations of UCP 2026-04-08 and 2026-08-25 (create, get, update, cancel) and create_checkout's cart
// conversion, shared by the REST and MCP bindings; the version's cart module reads the requests and shapes the cart. A cart is a checkout session run through the checkout.* tools, so converting it is
// answering that same session as a checkout: one active checkout per cart, and changes made in checkout show in the cart.
import { ToolError } from "../../core/errors.ts";
import { checkoutId, FINAL_STATUSES, type SessionView } from "../../tools/checkout/schemas.ts";
import cancelCheckout from "../../tools/checkout/cancel.ts";
import createCheckout from "../../tools/checkout/create.ts";
import getCheckout from "../../tools/checkout/get.ts";
import updateCheckout from "../../tools/checkout/update.ts";
import { invoke, operations, parse, type Answer, type UcpCall } from "./operations.ts";
import { UcpError } from "./errors.ts";
import * as cart0408 from "./v2026-04-08-cart.ts";
import * as cart0825 from "./v2026-08-25-cart.ts";
import { VERSION, type SessionFields } from "./v2026-04-08.ts";
import type { Shop } from "./v2026-08-25.ts";

/** A version's cart wire: its readings of cart and conversion requests (400 when they do not read), the cart, its error. */
interface CartWire {
  readCart(body: unknown): Pick<SessionFields, "lines" | "buyer">;
  readConversion(body: unknown): { cartId: string; input: Omit<SessionFields, "lines"> };
  cart(view: SessionView, shop: Shop): unknown;
  cartError(code: string, content: string, shop: Shop): unknown;
}

const WIRES: Record<string, CartWire> = {
  [VERSION]: {
    readCart: (body) => cart0408.cartInput(parse(cart0408.cartRequest, body, VERSION)),
    readConversion: (body) => {
      const request = parse(cart0408.conversionRequest, body, VERSION);
      return { cartId: request.cart_id, input: cart0408.conversionInput(request) };
    },
    cart: cart0408.cart,
    cartError: cart0408.cartError,
  },
  [cart0825.VERSION]: {
    readCart: (body) => cart0825.cartInput(parse(cart0825.cartRequest, body, cart0825.VERSION)),
    readConversion: (body) => {
      const request = parse(cart0825.conversionRequest, body, cart0825.VERSION);
      return { cartId: request.cart_id, input: cart0825.conversionInput(request) };
    },
    cart: cart0825.cart,
    cartError: cart0825.cartError,
  },
};

const GONE = "Cart not found or has expired.";

export const cartOperations = {
  async create(call: UcpCall, body: unknown): Promise<Answer> {
    const { readCart, cart, cartError } = wireOf(call);
    const input = { ...readCart(body), protocol: "ucp" as const, protocolVersion: call.adapter.version };
    try {
      return { status: 201, body: cart(await invoke(call, createCheckout, input), call.shop) };
    } catch (error) {
      // No item can be had (unknown, not for sale, a product that needs a variant): an outcome without a cart.
      if (!isRefusal(error)) throw error;
      return { status: 200, body: cartError(error.code, error.message, call.shop) };
    }
  },

  async get(call: UcpCall, id: string): Promise<Answer> {
    const { cart, cartError } = wireOf(call);
    const view = await open(call, id);
    return { status: 200, body: view ? cart(view, call.shop) : cartError("not_found", GONE, call.shop) };
  },

  /** Replaces the cart's lines (and buyer, when given); a refused item leaves the cart as it was, with the refusal first. */
  async update(call: UcpCall, id: string, body: unknown): Promise<Answer> {
    const { readCart, cart, cartError } = wireOf(call);
    const input = readCart(body);
    if (!(await open(call, id))) return { status: 200, body: cartError("not_found", GONE, call.shop) };
    try {
      return { status: 200, body: cart(await invoke(call, updateCheckout, { id, ...input }), call.shop) };
    } catch (error) {
      if (isClosed(error)) return { status: 200, body: cartError("not_found", GONE, call.shop) };
      if (!isRefusal(error)) throw error;
      const shown = cart(await invoke(call, getCheckout, { id }), call.shop) as { messages?: unknown[] };
      return { status: 200, body: { ...shown, messages: [{ type: "error" as const, code: error.code, content: error.message, severity: "recoverable" as const }, ...(shown.messages ?? [])] } };
    }
  },

  /** Cancels the cart and answers it as it was; later calls find no cart. */
  async cancel(call: UcpCall, id: string): Promise<Answer> {
    const { cart, cartError } = wireOf(call);
    if (!(await open(call, id))) return { status: 200, body: cartError("not_found", GONE, call.shop) };
    try {
      return { status: 200, body: cart(await invoke(call, cancelCheckout, { id }), call.shop) };
    } catch (error) {
      if (isClosed(error)) return { status: 200, body: cartError("not_found", GONE, call.shop) };
      throw error;
    }
  },

  /**
   * Create Checkout: with `cart_id` (2026-04-08 and 2026-08-25) the cart's session as the checkout, its fulfilment and discount codes
   * set from the request (lines and buyer stay the cart's); a cart that is gone is an outcome without a checkout.
   * Without it, the ordinary create.
   */
  async createCheckout(call: UcpCall, body: unknown): Promise<Answer> {
    const cartId = (body as { cart_id?: unknown } | null)?.cart_id;
    const wire = WIRES[call.adapter.version];
    if (!wire || cartId === undefined) return operations.create(call, body);
    const { cartId: id, input } = wire.readConversion(body);
    const gone = { status: 200, body: call.adapter.error("not_found", `Cart ${id.slice(0, 100)} not found or has expired.`, "unrecoverable") };
    if (!(await open(call, id))) return gone;
    try {
      const view = Object.keys(input).length ? await invoke(call, updateCheckout, { id, ...input }) : await invoke(call, getCheckout, { id });
      return { status: 201, body: call.adapter.checkout(view, call.shop) };
    } catch (error) {
      if (isClosed(error)) return gone;
      throw error;
    }
  },
};

/** The cart wire of the call's version; 2026-01-11 defines no cart: its agents are told which versions have one. */
function wireOf(call: UcpCall): CartWire {
  const wire = WIRES[call.adapter.version];
  if (!wire) throw new UcpError(422, "version_unsupported", `The cart capability needs UCP ${Object.keys(WIRES).join(" or ")}; this request negotiated ${call.adapter.version}.`);
  return wire;
}

/** The caller's open cart with this id, or null (no such session, someone else's, completed, canceled or expired). */
async function open(call: UcpCall, id: string): Promise<SessionView | null> {
  if (!checkoutId.safeParse(id).success) return null;
  try {
    const view = await invoke(call, getCheckout, { id });
    return FINAL_STATUSES.has(view.status) ? null : view;
  } catch (error) {
    if (error instanceof ToolError && error.status === 404) return null;
    throw error;
  }
}

/** A domain refusal about the items (422), reported as an outcome. */
function isRefusal(error: unknown): error is ToolError {
  return error instanceof ToolError && error.status === 422 && error.code !== "checkout_not_modifiable";
}

/** The session closed between our look and the change (completed, canceled or expired meanwhile). */
function isClosed(error: unknown): boolean {
  return error instanceof ToolError && (error.code === "checkout_not_modifiable" || error.status === 404);
}
