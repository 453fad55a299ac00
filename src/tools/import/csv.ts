// A small RFC 4180 CSV reader: quoted fields (with "" for a quote and line breaks inside), CRLF or LF, a header row.

/** The rows of a CSV text as objects keyed by the header row; blank lines are skipped. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += char;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((cells) => cells.some((cell) => cell.trim() !== ""));
  if (!header) return [];
  const names = header.map((name) => name.trim().replace(/^\uFEFF/, ""));
  return body.map((cells) => Object.fromEntries(names.map((name, index) => [name, (cells[index] ?? "").trim()])));
}
