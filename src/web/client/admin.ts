// Enhancements of the admin pages: copy buttons (a new API key) and select-on-focus for read-only values.

/** `data-copy="#id"` buttons copy that field's value; shown only where the clipboard can be used. */
function copyButtons(): void {
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>("[data-copy]"))) {
    const target = document.querySelector<HTMLInputElement>(button.dataset.copy ?? "");
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    const label = button.textContent ?? "";
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(target.value).then(
        () => {
          button.textContent = "Kopieret ✓";
          window.setTimeout(() => (button.textContent = label), 2000);
        },
        () => {
          target.select();
          button.textContent = "Markeret – tryk Ctrl+C";
        },
      );
    });
  }
}

/** Read-only fields marked `data-select-on-focus` select their whole value, so copying by hand is one keystroke. */
function selectOnFocus(): void {
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-focus")) target.select();
  });
}

copyButtons();
selectOnFocus();
