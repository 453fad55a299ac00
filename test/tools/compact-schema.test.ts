// The compaction MCP and the assistants list input schemas in: what it shares and what it drops.
import { describe, expect, it } from "vitest";
import { compactSchema } from "../../src/tools/compact-schema.ts";

const id = { type: "string", minLength: 1, maxLength: 64 };
const address = {
  type: "object",
  properties: { street: { type: "string", minLength: 1, maxLength: 200 }, city: { type: "string", minLength: 1, maxLength: 100 } },
  required: ["street", "city"],
  additionalProperties: false,
};

describe("compactSchema", () => {
  it("defines a repeated subschema once under $defs, named after the property it first appears under", () => {
    const schema = { type: "object", properties: { shipping: address, billing: address }, additionalProperties: false };
    const compact = compactSchema(schema);
    expect(compact).toEqual({
      type: "object",
      properties: { shipping: { $ref: "#/$defs/shipping" }, billing: { $ref: "#/$defs/shipping" } },
      additionalProperties: false,
      $defs: { shipping: address },
    });
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(schema).length);
  });

  it("leaves a repeat in place when a $ref and its definition would not save 40 characters", () => {
    const schema = { type: "object", properties: { a: id, b: id }, additionalProperties: false };
    expect(compactSchema(schema)).toEqual(schema);
  });

  it("drops a property's description that only spells its name out again, and keeps one that says more", () => {
    const schema = {
      type: "object",
      properties: {
        orderId: { ...id, description: "Order id." },
        customerEmail: { type: "string", format: "email", description: "Customer e-mail." },
        slug: { ...id, description: "Product slug." },
      },
      additionalProperties: false,
    };
    expect(compactSchema(schema)).toEqual({
      type: "object",
      properties: { orderId: id, customerEmail: { type: "string", format: "email" }, slug: { ...id, description: "Product slug." } },
      additionalProperties: false,
    });
  });

  it("drops a description that only names the field and the tool's area, or that the name and bounds say already", () => {
    const limit = { type: "integer", minimum: 1, maximum: 100, default: 20 };
    const schema = {
      type: "object",
      properties: { slug: { ...id, description: "Product slug." }, limit: { ...limit, description: "Page size." }, email: { type: "string", description: "Staff e-mail." } },
    };
    expect(compactSchema(schema, "products.get")).toEqual({ type: "object", properties: { slug: id, limit, email: { type: "string", description: "Staff e-mail." } } });
    expect(compactSchema(schema, "staff.get")).toEqual({ type: "object", properties: { slug: { ...id, description: "Product slug." }, limit, email: { type: "string" } } });
  });
});
