// One tool call in the admin assistant's answer: a read shows its result; a write is an approval card (tool, input,
// Godkend / Afvis) that after the decision shows what came of it (done, refused by the shop with the problem, denied).
import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";
import { el } from "./admin-dom.ts";
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
  const box = el("div", "tool-problem", undefined);
  box.setAttribute("role", "alert");
  box.append(el("strong", undefined, view.title));
  if (view.detail) box.append(el("p", undefined, view.detail));
  if (view.errors.length) {
    const list = box.appendChild(el("ul"));
    for (const error of view.errors) list.append(el("li", undefined, error));
  }
  return box;
}

function decisionButtons(approvalId: string, decide: Decide): HTMLElement {
  const actions = el("div", "tool-actions");
  const approve = el("button", "button button-small", "Godkend");
  const deny = el("button", "button button-small button-secondary", "Afvis");
  for (const [button, approved] of [[approve, true], [deny, false]] as const) {
    button.type = "button";
    button.addEventListener("click", () => {
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
  const card = el("article", `tool-card ${approval ? "tool-card-write" : "tool-card-read"}`);
  card.dataset.tool = name;
  card.dataset.state = part.state;

  const head = card.appendChild(el("header", "tool-head"));
  head.append(el("span", "tool-kind", approval ? "Ændring" : "Opslag"), el("code", "tool-name", name), el("span", `tag${status.tone ? ` tag-${status.tone}` : ""}`, status.text));

  if (approval) {
    if (hasInput(part.input)) card.append(renderValue(part.input));
    if (part.state === "approval-requested") {
      card.append(el("p", "tool-question", "Skal assistenten udføre denne ændring?"), decisionButtons(part.approval.id, decide));
    }
  } else if (hasInput(part.input)) {
    const details = card.appendChild(el("details", "tool-input"));
    details.append(el("summary", undefined, "Forespørgsel"), renderValue(part.input));
  }

  if (part.state === "output-available") {
    if (approval) card.append(el("p", "tool-section", "Resultat"));
    card.append(renderValue(part.output));
  }
  if (part.state === "output-error") card.append(problem(part.errorText));
  if (part.state === "output-denied" && part.approval.reason) card.append(el("p", "hint", `Begrundelse: ${part.approval.reason}`));
  return card;
}
