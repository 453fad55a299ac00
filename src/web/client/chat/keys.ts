// Where the storefront chat keeps what outlives a page: the open chat's id (this browser), whether the panel is open
// and whether an answer was running (this tab).
export const CHAT_ID_KEY = "shop.chat.id";
export const OPEN_KEY = "shop.chat.open";
export const BUSY_KEY = "shop.chat.busy";

/** Whether this page load must bring the chat back at once: the panel was open, or an answer was running. */
export function chatWanted(): boolean {
  return Boolean(sessionStorage.getItem(OPEN_KEY) || sessionStorage.getItem(BUSY_KEY));
}
