// keys.set_acp through real HTTP: a key's ACP signing secret and webhook URL are set, kept, cleared, audited with the
// secret redacted, never shown back; only for keys whose scopes the caller holds; webhook URLs pass the outbound guard;
// 404 for an unknown id.
import { describe, expect, it } from "vitest";
import { findActiveKey } from "../../../src/tools/keys/key-secrets.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["keys:write", "checkout:agent"] } });

const db = () => server.prisma;
const idOf = async (secret: string) => (await findActiveKey(db(), secret))!.id;
const SECRET = "acp-signing-secret-0123456789";

describe("keys.set_acp", () => {
  it("sets, keeps and clears the signing secret and webhook URL, audits with the secret redacted", async () => {
    const id = await idOf(await server.key("checkout:agent"));
    const set = expectOk(server, "keys.set_acp", await server.call("keys.set_acp", { id, signingSecret: SECRET, webhookUrl: "https://agent.example.com/hooks" }, { key }));
    expect(set).toEqual({ id, signingSecretSet: true, webhookUrl: "https://agent.example.com/hooks" });
    expect(await db().apiKey.findUnique({ where: { id } })).toMatchObject({ acpSigningSecret: SECRET, acpWebhookUrl: "https://agent.example.com/hooks" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "keys.set_acp", subjectType: "apiKey", subjectId: id, after: { signingSecretSet: true } });
    expect(JSON.stringify(audit)).not.toContain(SECRET);

    const kept = expectOk(server, "keys.set_acp", await server.call("keys.set_acp", { id, webhookUrl: null }, { key }));
    expect(kept).toEqual({ id, signingSecretSet: true, webhookUrl: null });
    const cleared = expectOk(server, "keys.set_acp", await server.call("keys.set_acp", { id, signingSecret: null }, { key }));
    expect(cleared).toEqual({ id, signingSecretSet: false, webhookUrl: null });

    const before = await auditCount(server);
    expectOk(server, "keys.set_acp", await server.call("keys.set_acp", { id }, { key }));
    expect(await auditCount(server)).toBe(before);
  });

  it("refuses webhook URLs on private and loopback addresses as webhooks.create does (WEBHOOKS_ALLOW_LOCAL off)", async () => {
    const id = await idOf(await server.key("checkout:agent"));
    const before = await auditCount(server);
    for (const webhookUrl of ["http://127.0.0.1:8080/acp", "http://169.254.169.254/latest/meta-data", "https://localhost./acp", "https://[::127.0.0.1]/acp", "http://10.0.0.7/acp", "https://[::ffff:192.168.1.1]/acp"]) {
      expectProblem(await server.call("keys.set_acp", { id, signingSecret: SECRET, webhookUrl }, { key }), 422, "receiver_not_allowed");
    }
    expect(await db().apiKey.findUniqueOrThrow({ where: { id } })).toMatchObject({ acpSigningSecret: null, acpWebhookUrl: null });
    expect(await auditCount(server)).toBe(before);
    const set = expectOk(server, "keys.set_acp", await server.call("keys.set_acp", { id, webhookUrl: "https://1.1.1.1/acp/webhooks" }, { key }));
    expect(set).toMatchObject({ webhookUrl: "https://1.1.1.1/acp/webhooks" });
  });

  it("cannot change a key that has scopes the caller lacks", async () => {
    const id = await idOf(await server.key("orders:write"));
    expectProblem(await server.call("keys.set_acp", { id, signingSecret: SECRET }, { key }), 403, "forbidden");
    expect((await db().apiKey.findUnique({ where: { id } }))!.acpSigningSecret).toBeNull();
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("keys.set_acp", { id: "no-such-key", webhookUrl: null }, { key }), 404, "not_found");
  });

  it("needs keys:write", async () => {
    const id = await idOf(await server.key("keys:write"));
    await expectScopeMatrix(server, "keys.set_acp", { id, webhookUrl: null });
  });

  it("rejects bad input and changes nothing", async () => {
    const id = await idOf(await server.key("checkout:agent"));
    await expectRejected(
      server,
      "keys.set_acp",
      key,
      [{}, { signingSecret: SECRET }, { id, signingSecret: "short" }, { id, signingSecret: `${SECRET} with space` }, { id, webhookUrl: "ftp://x.example" }, { id, webhookUrl: "not a url" }, { id, extra: 1 }],
      async () => [JSON.stringify(await db().apiKey.findMany({ select: { id: true, acpSigningSecret: true, acpWebhookUrl: true }, orderBy: { id: "asc" } })), await auditCount(server)],
    );
  });
});
