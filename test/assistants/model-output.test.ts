// forModel: a tool result the model reads is at most N characters of valid JSON that says what was cut.
import { describe, expect, it } from "vitest";
import { forModel } from "../../src/assistants/turns/model-output.ts";

const item = (i: number) => ({ id: `p${i}`, name: `Brille ${i}`, text: "x".repeat(80) });
const size = (value: unknown) => JSON.stringify(value).length;

describe("forModel", () => {
  it("passes a short result through unchanged", () => {
    const output = [item(1), item(2)];
    expect(forModel(output, 16_000)).toBe(output);
    expect(forModel(undefined, 100)).toBeNull();
  });

  it("keeps the first items of a long list that fit, with the total and a note", () => {
    const output = Array.from({ length: 500 }, (_, i) => item(i));
    const cut = forModel(output, 4_000) as { truncated: boolean; total: number; shown: number; items: unknown[]; note: string };
    expect(size(cut)).toBeLessThanOrEqual(4_000);
    expect(cut).toMatchObject({ truncated: true, total: 500, note: expect.stringContaining("too long") });
    expect(cut.shown).toBe(cut.items.length);
    expect(cut.items).toEqual(output.slice(0, cut.shown));
    expect(cut.shown).toBeGreaterThan(10);
  });

  it("cuts the longest list of an object and keeps its other fields", () => {
    const output = { total: 900, tags: ["a", "b"], orders: Array.from({ length: 300 }, (_, i) => item(i)) };
    const cut = forModel(output, 3_000) as Record<string, unknown> & { orders: unknown[] };
    expect(size(cut)).toBeLessThanOrEqual(3_000);
    expect(cut).toMatchObject({ total: 900, tags: ["a", "b"], truncated: { field: "orders", total: 300, shown: cut.orders.length } });
    expect(cut.orders).toEqual(output.orders.slice(0, cut.orders.length));
  });

  it("falls back to a preview of the JSON when nothing list-like can be cut", () => {
    const cut = forModel({ description: "y".repeat(10_000) }, 2_000) as { truncated: boolean; chars: number; preview: string };
    expect(size(cut)).toBeLessThanOrEqual(2_000);
    expect(cut).toMatchObject({ truncated: true, chars: 10_018, preview: expect.stringMatching(/^\{"description":"yyy/) });
    const single = forModel([{ description: "z".repeat(10_000) }], 2_000);
    expect(single).toMatchObject({ truncated: true, preview: expect.stringMatching(/^\[\{"description"/) });
    expect(size(single)).toBeLessThanOrEqual(2_000);
    const quoted = forModel({ text: '"'.repeat(5_000) }, 2_000);
    expect(size(quoted)).toBeLessThanOrEqual(2_000);
  });
});
