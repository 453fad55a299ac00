// One tool call in the admin assistant's answer: a read shows its result; a write is an approval card (tool, input,
// Godkend / Afvis) that after the decision shows what came of it (done, refused by the shop with the problem, denied).
import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";
import { button, el } from "./dom.ts";
import { problemView, toolLabel } from "./admin-format.ts";
import { renderValue } from "./admin-results.ts";

export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** Answers an approval request: `chat.addToolApprovalResponse({ id, approved })`. */
export type Decide = (approvalId: string, approved: boolean) => void;

interface Status {
  text: string;
  tone: "ok" | "warn" | "bad" | "info" | "";
}

function statusOf(part: ToolPart, approval: boolean): Status {
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return { text: approval ? "Forbereder…" : "Henter…", tone: "info" };
    case "approval-requested":
      return { text: "Venter på din godkendelse", tone: "warn" };
    case "approval-responded":
      return part.approval.approved ? { text: "Godkendt – udføres…", tone: "info" } : { text: "Afvist af dig", tone: "" };
    case "output-available":
      return { text: approval ? "Udført" : "Hentet", tone: "ok" };
    case "output-error":
      return { text: approval ? "Ikke udført" : "Fejlede", tone: "bad" };
    case "output-denied":
      return { text: "Afvist af dig", tone: "" };
  }
}

function hasInput(input: unknown): boolean {
  return input !== undefined && !(typeof input === "object" && input !== null && !Array.isArray(input) && !Object.keys(input).length);
}

function problem(errorText: string): HTMLElement {
  const view = problemView(errorText);
  const box = el("div", { class: "tool-problem" });
  box.setAttribute("role", "alert");
  box.append(el("strong", {}, view.title));
  if (view.detail) box.append(el("p", {}, view.detail));
  if (view.errors.length) {
    const list = box.appendChild(el("ul"));
    for (const error of view.errors) list.append(el("li", {}, error));
  }
  return box;
}

function decisionButtons(approvalId: string, decide: Decide): HTMLElement {
  const actions = el("div", { class: "tool-actions" });
  const approve = button("Godkend", "button button-small");
  const deny = button("Afvis", "button button-small button-secondary");
  for (const [choice, approved] of [[approve, true], [deny, false]] as const) {
    choice.addEventListener("click", () => {
      approve.disabled = deny.disabled = true;
      decide(approvalId, approved);
    });
  }
  actions.append(approve, deny);
  return actions;
}

export function renderToolPart(part: ToolPart, decide: Decide): HTMLElement {
  const name = toolLabel(getToolName(part));
  const approval = part.state === "approval-requested" || part.approval !== undefined;
  const status = statusOf(part, approval);
  const card = el("article", { class: `tool-card ${approval ? "tool-card-write" : "tool-card-read"}` });
  card.dataset.tool = name;
  card.dataset.state = part.state;

  const head = card.appendChild(el("header", { class: "tool-head" }));
  head.append(el("span", { class: "tool-kind" }, approval ? "Ændring" : "Opslag"), el("code", { class: "tool-name" }, name), el("span", { class: `tag${status.tone ? ` tag-${status.tone}` : ""}` }, status.text));

  if (approval) {
    if (hasInput(part.input)) card.append(renderValue(part.input));
    if (part.state === "approval-requested") {
      card.append(el("p", { class: "tool-question" }, "Skal assistenten udføre denne ændring?"), decisionButtons(part.approval.id, decide));
    }
  } else if (hasInput(part.input)) {
    const details = card.appendChild(el("details", { class: "tool-input" }));
    details.append(el("summary", {}, "Forespørgsel"), renderValue(part.input));
  }

  if (part.state === "output-available") {
    if (approval) card.append(el("p", { class: "tool-section" }, "Resultat"));
    card.append(renderValue(part.output));
  }
  if (part.state === "output-error") card.append(problem(part.errorText));
  if (part.state === "output-denied" && part.approval.reason) card.append(el("p", { class: "hint" }, `Begrundelse: ${part.approval.reason}`));
  return card;
}
