// Setting rows inside a transaction: each section read once per transaction (until the transaction writes settings),
// while the shared client reads every time (another process may have written).
import { describe, expect, it } from "vitest";
import { forgetSettingRows, settingRow } from "../../../src/tools/settings/rows.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();

describe("setting rows", () => {
  it("are read once per transaction, again after the transaction forgets them, and every time outside one", async () => {
    const prisma = server.prisma;
    await prisma.$transaction(async (tx) => {
      const first = settingRow(tx, "shipping");
      expect(settingRow(tx, "shipping")).toBe(first);
      expect(settingRow(tx, "commerce")).not.toBe(first);
      const stored = await first;
      await tx.setting.update({ where: { section: "shipping" }, data: { value: { ...(stored!.value as object), flatRateDkk: 1234 } } });
      forgetSettingRows(tx);
      expect(((await settingRow(tx, "shipping"))!.value as { flatRateDkk: number }).flatRateDkk).toBe(1234);
    });
    expect(settingRow(prisma, "shipping")).not.toBe(settingRow(prisma, "shipping"));
    expect(((await settingRow(prisma, "shipping"))!.value as { flatRateDkk: number }).flatRateDkk).toBe(1234);
  });
});
