// /gavekort: a gift card's or store credit's balance and expiry by its code (giftcards.get), as a plain form that
// works without JavaScript. The code is posted, not put in the address: it is as good as cash, and addresses end up
// in browser history and logs.
import { ToolError } from "../../../core/errors.ts";
import giftcardsGet from "../../../tools/giftcards/get.ts";
import { breadcrumbs, field, notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { formatDate } from "./orders.ts";

interface Checked {
  code: string;
  result?: Html;
  error?: string;
  status?: number;
}

function view(web: StorefrontRequest, checked: Checked = { code: "" }): View {
  return {
    title: "Gavekort – se saldo",
    noindex: true,
    status: checked.status,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Gavekort" }])}
<div class="narrow">
<h1>Se saldo på gavekort</h1>
<p>Skriv koden fra dit gavekort eller tilgodebevis, så ser du, hvor meget der er tilbage, og hvornår det udløber. Koden bruger du i kassen.</p>
${checked.result ?? ""}
<form class="card gift-card-check" action="/gavekort" method="post">
${web.csrfField()}
${field({ name: "code", label: "Gavekortets kode", value: checked.code, required: true, autocomplete: "off", maxlength: 40, placeholder: "XXXX-XXXX-XXXX-XXXX", error: checked.error, hint: "Store eller små bogstaver; mellemrum og bindestreger er ligegyldige." })}
<button class="button" type="submit">Se saldo</button>
</form>
</div>`,
  };
}

export async function giftCardPage(web: StorefrontRequest): Promise<View> {
  return view(web);
}

export async function checkGiftCard(web: StorefrontRequest): Promise<View> {
  const code = web.field("code").trim().slice(0, 40);
  try {
    const card = await web.callAs(await web.shopper(), giftcardsGet, { code });
    const expired = card.expiresAt !== null && Date.parse(card.expiresAt) < Date.now();
    const expiry = card.expiresAt ? `${expired ? "Udløb" : "Gyldigt til og med"} ${formatDate(card.expiresAt)}.` : "Det udløber ikke.";
    const result = notice(
      expired ? "error" : "success",
      html`<p class="gift-card-balance">Saldo: <strong>${formatMoney(card.balanceDkk, card.currency)}</strong></p><p>${expiry}${expired ? " Det kan ikke længere bruges." : ""}</p>`,
    );
    // The code stays out of the page: only its last four symbols, as the e-mail and the admin show it.
    return view(web, { code: "", result: html`<section aria-live="polite"><p class="hint">Kort, der slutter på ${card.code.slice(-4)}</p>${result}</section>` });
  } catch (error) {
    if (!(error instanceof ToolError) || error.status >= 500) throw error;
    const text = error.status === 429 ? "For mange forsøg. Vent lidt, og prøv igen." : "Vi kender ikke den kode. Tjek, at du har skrevet den rigtigt.";
    return view(web, { code, error: text, status: error.status === 429 ? 429 : 400 });
  }
}
