// What each area of tools (the `<area>` of `<area>.<action>`) covers, in one line for readers of the catalogue: the
// OpenAPI document's tags, which the API reference (/docs) groups the tools by.

export const AREA_DESCRIPTIONS: Readonly<Record<string, string>> = {
  address: "Danish addresses: postal-code lookup, autocomplete and validation for checkout forms.",
  analytics: "Key figures for staff: sales over time, top products, channels, abandoned carts.",
  audit: "The audit log of every change, with revert and restore.",
  cart: "The shopper's own cart in a storefront session: items, shipping address, progress to free shipping, checkout.",
  categories: "Product categories: list, read, create or update, delete.",
  checkout: "Checkout sessions shared by the agent doors (UCP, ACP): create, update, complete, cancel, read the order.",
  customer: "Customers, their orders and address books: staff look up by e-mail or phone; shoppers keep their addresses.",
  discounts: "Discount codes: create, update, toggle, delete, and try one on a cart.",
  giftcards: "Gift cards and store credit: issue, check the balance, pay an order with one.",
  images: "Stock-photo search for product images.",
  keys: "API keys: create, list, change scopes, revoke (the secret is shown once).",
  marketing: "Newsletters: subscribers, campaigns and their schedule.",
  orders: "Orders from placement to delivery: list, read, status, tracking, notes, the payment ledger, refunds, cancellation, e-mails.",
  pages: "Content pages (about, terms, delivery …) and their section layouts.",
  products: "The catalogue: search and read (no key needed), create and update, variants, images, stock and prices.",
  returns: "Returns and exchanges: withdrawals (14 days) and complaints (24 months), approval, receipt with refund or replacement.",
  services: "Services the shop offers (eye tests, repairs): list, read, create, update, delete.",
  settings: "Shop settings: branding, contact, shipping, policies and feature flags.",
  staff: "Staff users, their scopes and passwords.",
  support: "Hand-off to a person: support tickets from shoppers and the assistant, the staff queue, replies by e-mail.",
  user: "A shopper's own account: sign-in by e-mailed code, their orders and last shipping address.",
  webhooks: "Outbound webhooks: endpoints, test events, the delivery log and resends.",
};
