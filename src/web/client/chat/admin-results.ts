// Tool inputs and results as the staff reads them: a list of records as a table of its scalar columns, a record as a
// definition list (its lists of records as tables below it), anything else as JSON; long results fold into <details>.
import { el } from "./dom.ts";
import { formatValue as formatIn, isNumeric, isScalar, labelOf, type Scalar } from "./admin-format.ts";

type Fields = Record<string, unknown>;

/** A value as the staff reads it, amounts in the shop currency the assistant's slot names (`data-currency`). */
function formatValue(key: string, value: Scalar): string {
  return formatIn(key, value, document.querySelector<HTMLElement>("#admin-assistant")?.dataset.currency ?? "DKK");
}

/** Rows shown before a table folds away, and entries before a definition list does. */
const LONG_TABLE = 8;
const LONG_LIST = 14;
/** Longer texts in a cell are cut (the whole text stays in the title). */
const CELL_CHARS = 60;

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTable(value: unknown): value is Fields[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord);
}

function cellText(key: string, value: Scalar): { text: string; title?: string } {
  const text = formatValue(key, value);
  return text.length > CELL_CHARS ? { text: `${text.slice(0, CELL_CHARS - 1)}…`, title: text } : { text };
}

function json(value: unknown): HTMLElement {
  return el("pre", { class: "mono" }, JSON.stringify(value, null, 2));
}

/** The scalar columns of the rows, in the order they first appear. */
function columnsOf(rows: Fields[]): string[] {
  const columns: string[] = [];
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) if (isScalar(value) && !columns.includes(key)) columns.push(key);
  }
  return columns;
}

function table(rows: Fields[], caption?: string): HTMLElement {
  const columns = columnsOf(rows);
  if (!columns.length) return json(rows);
  const wrap = el("div", { class: "table-wrap" });
  const grid = wrap.appendChild(el("table", { class: "result-table" }));
  if (caption) grid.createCaption().textContent = caption;
  const head = grid.createTHead().insertRow();
  for (const column of columns) {
    const th = el("th", { class: isNumeric(column, rows[0]?.[column]) ? "num" : undefined }, labelOf(column));
    th.scope = "col";
    head.append(th);
  }
  const body = grid.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const column of columns) {
      const value = row[column];
      const td = tr.insertCell();
      if (isNumeric(column, value)) td.className = "num";
      if (value === undefined || !isScalar(value)) continue;
      const { text, title } = cellText(column, value);
      td.textContent = text;
      if (title) td.title = title;
    }
  }
  return fold(wrap, rows.length > LONG_TABLE, `${caption ?? "Resultat"}: ${rows.length} rækker`);
}

function scalarList(key: string, values: unknown[]): string {
  return values.map((value) => (isScalar(value) ? formatValue(key, value) : JSON.stringify(value))).join(", ");
}

/** A record as <dl>: scalars and lists of scalars as entries, nested records nested (two levels), the rest as JSON. */
function facts(record: Fields, depth: number): HTMLElement {
  const list = el("dl", { class: "facts result-facts" });
  let entries = 0;
  for (const [key, value] of Object.entries(record)) {
    if (isTable(value)) continue;
    entries += 1;
    const pair = list.appendChild(el("div"));
    pair.append(el("dt", {}, labelOf(key)));
    const dd = pair.appendChild(el("dd"));
    if (isScalar(value)) dd.textContent = formatValue(key, value);
    else if (Array.isArray(value)) dd.textContent = value.length ? scalarList(key, value) : "–";
    else if (isRecord(value) && depth < 2) dd.append(facts(value, depth + 1));
    else dd.append(json(value));
  }
  return fold(list, depth === 0 && entries > LONG_LIST, `Resultat: ${entries} felter`);
}

function fold(content: HTMLElement, long: boolean, summary: string): HTMLElement {
  if (!long) return content;
  const details = el("details", { class: "result-fold" });
  details.append(el("summary", {}, summary), content);
  return details;
}

/** A tool's input or output, rendered for reading. */
export function renderValue(value: unknown): HTMLElement {
  const box = el("div", { class: "tool-value" });
  if (isTable(value)) box.append(table(value));
  else if (Array.isArray(value)) box.append(el("p", { class: "hint" }, value.length ? scalarList("", value) : "Ingen resultater."));
  else if (isRecord(value)) {
    const scalars = Object.entries(value).filter(([, field]) => !isTable(field));
    if (scalars.length) box.append(facts(value, 0));
    for (const [key, field] of Object.entries(value)) if (isTable(field)) box.append(table(field, labelOf(key)));
    if (!Object.keys(value).length) box.append(el("p", { class: "hint" }, "Intet indhold."));
  } else if (isScalar(value)) box.append(el("p", {}, formatValue("", value)));
  else box.append(json(value));
  return box;
}
