// The signed-in shopper's address book on /account: saved addresses with the default first, a form to add one or edit
// one, make one the default, and delete one, through customer.list_addresses / save_address / delete_address (the
// session's own customer; the tools refuse anyone else's). Plain forms, no JavaScript needed.
import { ToolError } from "../../../core/errors.ts";
import deleteAddress from "../../../tools/customer/delete_address.ts";
import listAddresses from "../../../tools/customer/list_addresses.ts";
import saveAddress from "../../../tools/customer/save_address.ts";
import type { AddressView } from "../../../tools/customer/addresses.ts";
import { field, notice } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { Outcome } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { reason } from "../texts.ts";

const FIELDS = ["name", "address", "zip", "city", "phone"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** A refused save, shown again at its form: the address it was for ("new" for the add form), the values, the reason. */
export interface AddressFormState {
  id: string;
  values: Values;
  error: string;
}

export async function addressBook(web: StorefrontRequest, state?: AddressFormState): Promise<Html> {
  const addresses = await web.call(listAddresses, {});
  const empty: Values = { name: "", address: "", zip: "", city: "", phone: "" };
  const editing = web.query("edit");
  return html`<section class="address-book" id="addresses" aria-labelledby="addresses-title">
<h2 id="addresses-title">Adressebog</h2>
${addresses.length
  ? html`<ul class="address-list">${addresses.map((address) => html`<li class="card address-card">
${editing === address.id || state?.id === address.id ? addressForm(web, address.id, state?.id === address.id ? state : undefined, valuesOf(address)) : addressCard(web, address)}
</li>`)}</ul>`
  : html`<p>Du har ingen gemte adresser endnu. Gem en her, så er den udfyldt næste gang.</p>`}
<details class="card address-new"${state?.id === "new" ? " open" : ""}><summary>Tilføj en adresse</summary>
${addressForm(web, "new", state?.id === "new" ? state : undefined, empty)}
</details>
</section>`;
}

function valuesOf(address: AddressView): Values {
  return { name: address.name, address: address.address, zip: address.zip, city: address.city, phone: address.phone ?? "" };
}

function addressCard(web: StorefrontRequest, address: AddressView): Html {
  return html`<p>${address.isDefault ? html`<span class="tag">Standard</span><br>` : ""}<strong>${address.name}</strong><br>${address.address}<br>${address.zip} ${address.city}${address.country !== "DK" ? html`<br>${address.country}` : ""}${address.phone ? html`<br>${address.phone}` : ""}</p>
<div class="address-actions">
<a class="button button-secondary button-small" href="/account?edit=${address.id}#addresses">Ret</a>
${address.isDefault ? "" : html`<form action="/account/addresses/${address.id}/default" method="post">${web.csrfField()}<button class="button button-secondary button-small" type="submit">Gør til standard</button></form>`}
<form action="/account/addresses/${address.id}/delete" method="post">${web.csrfField()}<button class="button-link" type="submit">Slet</button></form>
</div>`;
}

function addressForm(web: StorefrontRequest, id: string, state: AddressFormState | undefined, initial: Values): Html {
  const values = state?.values ?? initial;
  const prefix = `a-${id}`;
  return html`<form class="address-form" action="/account/addresses" method="post">
${web.csrfField()}
${id === "new" ? "" : html`<input type="hidden" name="id" value="${id}">`}
${state ? notice("error", state.error) : ""}
${field({ name: "name", id: `${prefix}-name`, label: "Navn", value: values.name, required: true, autocomplete: "name", maxlength: 200 })}
${field({ name: "address", id: `${prefix}-address`, label: "Adresse", value: values.address, required: true, autocomplete: "street-address", maxlength: 200 })}
<div class="field-row">
${field({ name: "zip", id: `${prefix}-zip`, label: "Postnummer", value: values.zip, required: true, autocomplete: "postal-code", inputmode: "numeric", pattern: "[0-9]{4}", maxlength: 4 })}
${field({ name: "city", id: `${prefix}-city`, label: "By", value: values.city, required: true, autocomplete: "address-level2", maxlength: 100 })}
</div>
${field({ name: "phone", id: `${prefix}-phone`, label: "Telefon", type: "tel", value: values.phone, autocomplete: "tel", maxlength: 30 })}
<button class="button button-small" type="submit">Gem adressen</button>
${id === "new" ? "" : html` <a href="/account#addresses">Fortryd</a>`}
</form>`;
}

/** POST /account/addresses: add or change one; a refused address (unknown postal code …) is shown again at its form. */
export async function saveAddressAction(web: StorefrontRequest, rerender: (state: AddressFormState) => Promise<Outcome>): Promise<Outcome> {
  const id = web.field("id");
  const values = Object.fromEntries(FIELDS.map((name) => [name, web.field(name).trim()])) as Values;
  try {
    await web.call(saveAddress, { ...(id ? { id } : {}), name: values.name, address: values.address, zip: values.zip, city: values.city, ...(values.phone ? { phone: values.phone } : {}) });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500 || error.status === 404) throw error;
    return rerender({ id: id || "new", values, error: reason(error) });
  }
  return { redirect: "/account?notice=address-saved#addresses" };
}

/** POST /account/addresses/:id/default: the same address, marked the default. */
export async function defaultAddressAction(web: StorefrontRequest): Promise<Outcome> {
  const id = String(web.req.params.id);
  const address = (await web.call(listAddresses, {})).find((candidate) => candidate.id === id);
  if (address) {
    await web.call(saveAddress, { id, name: address.name, address: address.address, zip: address.zip, city: address.city, country: address.country, ...(address.region ? { region: address.region } : {}), ...(address.phone ? { phone: address.phone } : {}), isDefault: true });
  }
  return { redirect: "/account?notice=address-default#addresses" };
}

/** POST /account/addresses/:id/delete. */
export async function deleteAddressAction(web: StorefrontRequest): Promise<Outcome> {
  await web.call(deleteAddress, { id: String(web.req.params.id) });
  return { redirect: "/account?notice=address-deleted#addresses" };
}
