// AI Act art. 50(1): both chat panels say plainly that an AI answers, and the storefront assistant is told to say it
// is an AI in its first answer and never to pass for a person.
import { describe, expect, it } from "vitest";
import { adminInstructions, storefrontInstructions } from "../../src/assistants/prompts.ts";
import { signedInClient } from "../support/admin.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();
const context = { publicBaseUrl: "https://shop.example.dk", now: new Date("2026-11-28T10:00:00Z"), currency: "DKK", pricesIncludeVat: true };

describe("AI disclosure", () => {
  it("tells the storefront assistant it is an AI, to say so in its first answer, and never to claim to be a person", () => {
    const prompt = storefrontInstructions(context);
    expect(prompt).toContain("You are an AI, not a person");
    expect(prompt).toContain("in your first answer of a conversation say briefly that you are the shop's AI assistant");
    expect(prompt).toContain("never claim or imply to be human");
    expect(adminInstructions(context)).toContain("You are an AI; never claim to be a person.");
  });

  it("names the AI in the storefront chat panel's heading and opening line", async () => {
    const home = await fetch(`${server.url}/`).then((response) => response.text());
    const src = /data-chat-src="([^"]+)"/.exec(home)?.[1];
    expect(src).toBeDefined();
    const script = await fetch(new URL(src!, server.url)).then((response) => response.text());
    // The bundle writes non-ASCII letters as escapes ("Sp\xF8rg"): look for the ASCII part of each text.
    expect(script.includes('"chat-title"},"Sp\\xF8rg vores AI-assistent"'), "heading").toBe(true);
    expect(script.includes("Du skriver med en AI, ikke et menneske."), "opening line").toBe(true);
  });

  it("names the AI on the admin assistant page", async () => {
    const owner = await signedInClient(server, "ai-ejer@nordlys.dk");
    const page = await owner.get("/admin/assistant");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<h1[^>]*>AI-assistent<\/h1>/);
    expect(page.html).toContain("skrive til en AI");
  });
});
