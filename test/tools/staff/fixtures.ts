// The staff tests' e-mailed password links: the captured mail to an address, and the token in its link.
import { expect } from "vitest";
import type { MailMessage } from "../../../src/core/mail.ts";
import type { TestServer } from "../../support/server.ts";

export const LINK = /\/admin\/password\?token=([\w-]{43})/;

/** The newest mail to `to` (polled: links leave after commit, in the background). */
export async function mailTo(box: { sent: MailMessage[] }, to: string, count = 1): Promise<MailMessage> {
  await expect.poll(() => box.sent.filter((mail) => mail.to === to).length).toBe(count);
  return box.sent.filter((mail) => mail.to === to).at(-1)!;
}

/** The token of the newest link mailed to `to`, checking the link points at this shop. */
export async function linkTokenTo(server: TestServer, box: { sent: MailMessage[] }, to: string, count = 1): Promise<string> {
  const mail = await mailTo(box, to, count);
  expect(mail.text).toContain(`${server.runtime.config.publicBaseUrl}/admin/password?token=`);
  return LINK.exec(mail.text)![1]!;
}
