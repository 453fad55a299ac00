// Outgoing e-mail with nodemailer: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox.
import fs from "node:fs";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Config } from "./config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

interface SentMail {
  messageId: string;
  /** "smtp" or "outbox" (the .eml file path is in `file`). */
  transport: "smtp" | "outbox";
  file?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">): Mailer {
  const { smtpUrl } = config;
  const outbox = path.join(config.dataDir, "outbox");
  // nodemailer loads with the first message, not at start: a shop that sends no mail never pays for it.
  let transporter: Promise<Transporter> | undefined;
  const transport = () =>
    (transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    ));
  return {
    async send(message) {
      const info = await (await transport()).sendMail({ from: config.mailFrom, ...message });
      if (smtpUrl) return { messageId: String(info.messageId), transport: "smtp" };
      fs.mkdirSync(outbox, { recursive: true });
      const id = String(info.messageId).replace(/[<>]/g, "");
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id.replace(/[^\w.-]/g, "_")}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      return { messageId: String(info.messageId), transport: "outbox", file };
    },
    close() {
      void transporter?.then((created) => created.close(), () => undefined);
    },
  };
}
