// The storefront chat widget's entry on every page: shows the header's chat button and loads the chat panel (the AI
// SDK chat, socket.io and the views: ~75 kB gzipped) only when it is needed — at the first click, or at once when the
// panel was open or an answer was running on the page before.
import { chatWanted } from "./chat/keys.ts";

type PanelModule = typeof import("./chat-panel.ts");

const toggle = document.querySelector<HTMLButtonElement>("[data-chat-toggle]");
const root = document.querySelector<HTMLElement>("#chat-root");
const source = root?.dataset.chatSrc;

if (toggle && root && source) {
  let panel: Promise<InstanceType<PanelModule["ChatPanel"]>> | undefined;
  // A click before the panel exists loads and opens it; once loaded, the panel handles the button itself.
  const firstClick = () => void load().then((loaded) => loaded.open());
  const load = () =>
    (panel ??= (import(source) as Promise<PanelModule>).then(({ ChatPanel }) => {
      toggle.removeEventListener("click", firstClick);
      return new ChatPanel(toggle, root);
    }));
  toggle.addEventListener("click", firstClick, { once: true });
  toggle.hidden = false;
  if (chatWanted()) void load().then((loaded) => loaded.restore());
}
