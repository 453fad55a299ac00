// Enhancements of the admin pages: copy buttons (a new API key), select-on-focus for read-only values, and the new
// product's slug filled in from its name.
import { slugFromName } from "../admin/slug.ts";

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

/**
 * A name field with `data-slug-source="<slug field id>"` fills that slug field as the name is typed, until the staff
 * user types in the slug field themselves (without the script the server derives the slug from the name).
 */
function slugFromNameField(): void {
  for (const source of Array.from(document.querySelectorAll<HTMLInputElement>("input[data-slug-source]"))) {
    const target = document.getElementById(source.dataset.slugSource ?? "");
    if (!(target instanceof HTMLInputElement)) continue;
    let own = target.value !== "" && target.value !== slugFromName(source.value);
    target.addEventListener("input", () => {
      own = target.value !== "";
    });
    source.addEventListener("input", () => {
      if (!own) target.value = slugFromName(source.value);
    });
  }
}

copyButtons();
selectOnFocus();
slugFromNameField();
