// How the admin assistant page names tools and shows values and problems (src/web/client/chat/admin-format.ts).
import { describe, expect, it } from "vitest";
import { formatValue, isNumeric, problemView, toolLabel } from "../../../src/web/client/chat/admin-format.ts";

describe("admin assistant formatting", () => {
  it("turns the model's tool names back into registry names, keeping underscores of the action", () => {
    expect(toolLabel("discounts_delete")).toBe("discounts.delete");
    expect(toolLabel("products_attach_image")).toBe("products.attach_image");
  });

  it("shows øre fields (…Dkk, …Oere) as kroner, shares as percent, times and days in Danish, booleans and null in words", () => {
    expect(formatValue("totalDkk", 123450, "DKK").replace(/\s/g, " ")).toBe("1.234,50 kr.");
    expect(formatValue("vatOere", 2500, "DKK").replace(/\s/g, " ")).toBe("25,00 kr.");
    expect(formatValue("aiGeneratedShare", 0.25, "DKK")).toBe("25\u00a0%");
    expect(formatValue("value", 20000, "DKK")).toBe("20.000");
    expect(formatValue("createdAt", "2026-11-22T18:30:00.000Z", "DKK")).toMatch(/^22\. nov\. 2026.*\d{2}[.:]\d{2}$/);
    expect(formatValue("fromDate", "2026-01-05", "DKK")).toBe("5. jan. 2026");
    expect(formatValue("active", false, "DKK")).toBe("nej");
    expect(formatValue("validUntil", null, "DKK")).toBe("–");
    expect(formatValue("code", "SOMMER200", "DKK")).toBe("SOMMER200");
    expect(formatValue("status", "pending_payment", "DKK")).toBe("Afventer betaling");
    expect(formatValue("status", "published", "DKK")).toBe("published");
    expect(isNumeric("totalDkk", 100)).toBe(true);
    expect(isNumeric("code", "100")).toBe(false);
  });

  it("reads a tool error's problem JSON as title, detail and field errors, and any other text as it is", () => {
    const problem = JSON.stringify({ title: "Invalid input", status: 400, code: "invalid_input", detail: "Check the fields.", errors: [{ path: "code", message: "Required" }] });
    expect(problemView(problem)).toEqual({ title: "Invalid input", detail: "Check the fields.", errors: ["code: Required"] });
    expect(problemView("Tool timed out")).toEqual({ title: "Tool timed out", errors: [] });
  });
});
