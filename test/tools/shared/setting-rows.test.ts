// Setting rows: the process keeps what it read (the shared client and the executor's transactions) until a change
// is notified or a tool's write commits; a transaction made elsewhere reads each section once, and again after it
// writes settings.
import { describe, expect, it } from "vitest";
import { forgetSettingRows, settingRow } from "../../../src/tools/shared/setting-rows.ts";
import { expectOk } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });
const flatRate = async (read: Promise<{ value: unknown } | null>) => ((await read)!.value as { flatRateDkk: number }).flatRateDkk;

describe("setting rows", () => {
  it("are read once per transaction made outside the executor, again after that transaction writes settings", async () => {
    await server.prisma.$transaction(async (tx) => {
      const first = settingRow(tx, "shipping");
      expect(settingRow(tx, "shipping")).toBe(first);
      expect(settingRow(tx, "commerce")).not.toBe(first);
      const stored = await first;
      await tx.setting.update({ where: { section: "shipping" }, data: { value: { ...(stored!.value as object), flatRateDkk: 1234 } } });
      forgetSettingRows(tx);
      expect(await flatRate(settingRow(tx, "shipping"))).toBe(1234);
    });
  });

  it("are kept by the process until any writer's change is notified", async () => {
    const prisma = server.prisma;
    // The same row object: not read again (a notice of the test before may still arrive once, between two reads).
    const twice = async () => (await settingRow(prisma, "shipping")) === (await settingRow(prisma, "shipping"));
    expect(await poll(twice, (same) => same, 5_000)).toBe(true);
    const stored = await settingRow(prisma, "shipping");
    // A write the process did not make as a tool (psql, another process): the trigger's notice makes it forget.
    await prisma.setting.update({ where: { section: "shipping" }, data: { value: { ...(stored!.value as object), flatRateDkk: 2345 } } });
    expect(await poll(() => flatRate(settingRow(prisma, "shipping")), (rate) => rate === 2345, 5_000)).toBe(2345);
  });

  it("are forgotten when a settings tool commits, before it answers", async () => {
    expect(await flatRate(settingRow(server.prisma, "shipping"))).not.toBe(3456);
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { flatRateDkk: 3456 }, { key }));
    expect(await flatRate(settingRow(server.prisma, "shipping"))).toBe(3456);
  });
});
