// Enhancements every web page gets (storefront and admin): broken-image fallbacks, auto-submitting fields, confirmations.

/** An image that failed to load is hidden, so the illustrated placeholder behind it shows instead of a broken icon. */
function watchImages(): void {
  const mark = (img: HTMLImageElement) => img.classList.add("img-broken");
  document.addEventListener("error", (event) => {
    if (event.target instanceof HTMLImageElement) mark(event.target);
  }, true);
  for (const img of Array.from(document.images)) {
    if (img.complete && img.naturalWidth === 0 && img.currentSrc) mark(img);
  }
}

/** `data-autosubmit` fields send their form on change, so e.g. a quantity needs no extra "update" click. */
function autosubmit(): void {
  document.addEventListener("change", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (!target.hasAttribute("data-autosubmit") || !target.form) return;
    if (target instanceof HTMLInputElement && !target.checkValidity()) return;
    target.form.requestSubmit();
  });
  for (const button of Array.from(document.querySelectorAll<HTMLElement>("[data-autosubmit-hide]"))) button.hidden = true;
}

/** `data-confirm="question"` on a form asks before sending it. */
function confirmations(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

watchImages();
autosubmit();
confirmations();
