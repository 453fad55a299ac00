// Checkout enhancement: a Danish postal code fills in its city (address.lookup_postal_code over the REST door,
// as the shopper's session), and says so when the code does not exist.
import { formatMoney } from "../../core/format.ts";

interface Lookup {
  ok: boolean;
  result?: { zip: string; city: string };
}

async function cityOf(zip: string): Promise<string | null> {
  const response = await fetch("/api/v1/tools/address.lookup_postal_code", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ zip }),
    credentials: "same-origin",
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`lookup failed: ${response.status}`);
  const body = (await response.json()) as Lookup;
  return body.result?.city ?? null;
}

function hintFor(input: HTMLInputElement): HTMLElement {
  const id = `${input.id}-lookup`;
  let hint = document.getElementById(id);
  if (!hint) {
    hint = document.createElement("p");
    hint.id = id;
    hint.className = "hint lookup-hint";
    hint.setAttribute("aria-live", "polite");
    input.insertAdjacentElement("afterend", hint);
    input.setAttribute("aria-describedby", [input.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
  }
  return hint;
}

for (const zipInput of Array.from(document.querySelectorAll<HTMLInputElement>("input[data-postal-code]"))) {
  const cityInput = document.getElementById(zipInput.dataset.postalCode ?? "");
  if (!(cityInput instanceof HTMLInputElement)) continue;
  let asked = "";
  const lookUp = async () => {
    const zip = zipInput.value.trim();
    if (!/^\d{4}$/.test(zip) || zip === asked) return;
    asked = zip;
    const hint = hintFor(zipInput);
    try {
      const city = await cityOf(zip);
      if (zip !== zipInput.value.trim()) return;
      if (city) {
        cityInput.value = city;
        hint.textContent = `${zip} ${city}`;
      } else {
        hint.textContent = "Postnummeret findes ikke.";
      }
    } catch {
      hint.textContent = "";
    }
  };
  zipInput.addEventListener("input", () => void lookUp());
  zipInput.addEventListener("change", () => void lookUp());
}

// The chosen delivery method's price (data-shipping on its radio, øre) in the totals box and the order button, so the
// total shown is what the order will cost; without the script the price stands next to each method.
const orderForm = document.querySelector<HTMLFormElement>("form[data-goods]");
if (orderForm) {
  // The server's formatter, in the shop currency the form names: 129900 DKK → "1.299,00 kr.".
  const kr = (minor: number) => formatMoney(minor, orderForm.dataset.currency ?? "DKK");
  const totals = document.querySelector(".checkout-layout .totals");
  const shippingCell = [...(totals?.querySelectorAll("dt") ?? [])].find((dt) => dt.textContent === "Fragt")?.nextElementSibling;
  orderForm.addEventListener("change", (event) => {
    const radio = event.target as HTMLInputElement;
    if (radio.name !== "deliveryMethod" || !radio.dataset.shipping) return;
    const shipping = Number(radio.dataset.shipping);
    const total = Number(orderForm.dataset.goods) + shipping;
    if (shippingCell) shippingCell.textContent = shipping === 0 ? "Gratis" : kr(shipping);
    const totalCell = totals?.querySelector(".total dd");
    if (totalCell) totalCell.textContent = kr(total);
    const vatCell = totals?.querySelector(".vat dd");
    // VAT contained at 25 %: total / 5 rounded half up, as the server computes it (only when prices include VAT).
    if (vatCell && orderForm.dataset.vat === "1") vatCell.textContent = kr(Math.floor((total + 2) / 5));
    const button = orderForm.querySelector("button[type=submit]");
    if (button) button.textContent = `Bestil og gå til betaling · ${kr(total)}`;
  });
}
