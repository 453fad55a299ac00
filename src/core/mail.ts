// Outgoing e-mail with nodemailer: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox.
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "./config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
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
  if (config.smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transporter.sendMail({ from: config.mailFrom, ...message });
        return { messageId: String(info.messageId), transport: "smtp" };
      },
      close: () => transporter.close(),
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transporter.sendMail({ from: config.mailFrom, ...message });
      fs.mkdirSync(outbox, { recursive: true });
      const id = String(info.messageId).replace(/[<>]/g, "");
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id.replace(/[^\w.-]/g, "_")}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      return { messageId: String(info.messageId), transport: "outbox", file };
    },
    close: () => transporter.close(),
  };
}
