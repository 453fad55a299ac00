// How the admin assistant page shows tool names, values and problems: registry names back from the model's wire
// names, money in the shop currency, dates and order statuses in Danish, and a tool error's problem JSON as a title and
// a detail.
export { formatValue, isNumeric, isScalar, labelOf, type Scalar } from "../../admin/values.ts";

/** The registry name of a model tool name: `discounts_delete` → `discounts.delete` (areas have no "_", actions may). */
export function toolLabel(wireName: string): string {
  return wireName.replace("_", ".");
}

export interface ProblemView {
  title: string;
  detail?: string;
  /** Field errors of a 400/422 (`errors: [{path, message}]`). */
  errors: string[];
}

/** A failed tool call's text: the shop's problem JSON (title, detail, errors), or the text as it is. */
export function problemView(errorText: string): ProblemView {
  try {
    const problem = JSON.parse(errorText) as { title?: unknown; detail?: unknown; errors?: unknown };
    if (problem && typeof problem.title === "string") {
      const errors = Array.isArray(problem.errors)
        ? problem.errors.map((error: { path?: unknown; message?: unknown }) => [error.path, error.message].filter((part) => typeof part === "string" && part).join(": "))
        : [];
      return { title: problem.title, detail: typeof problem.detail === "string" ? problem.detail : undefined, errors: errors.filter(Boolean) };
    }
  } catch {
    // not JSON: a plain message
  }
  return { title: errorText, errors: [] };
}
