import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../config/config';
import { type ComponentHealth, probe } from '../health/component-health';
import { logger } from '../logging/logger';

export interface OutgoingMail {
  to: string;
  /** Where a reply goes, when not to the sender (a customer's own address). */
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with it (an invoice's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** A stable Message-ID, so a mail sent twice after a crash reads as one in the customer's client. */
  messageId?: string;
}

/** Sends mail through SMTP, or, in embedded mode, writes it to a local outbox folder. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  health(): Promise<ComponentHealth>;
}

export const MAILER = Symbol('Mailer');

export function mailerFor(config: AppConfig): Mailer {
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.MAIL_FROM);
}

export class SmtpMailer implements Mailer {
  private readonly transport: nodemailer.Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.transport.verify();
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'smtp', latencyMs: result.latencyMs, detail: result.detail };
  }
}

/** Each mail becomes a JSON file the developer can open; the log says where. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly folder: string,
    private readonly from: string,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true });
    const file = path.join(this.folder, `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID().slice(0, 8)}.json`);
    const { attachments = [], ...rest } = mail;
    // Attachments are written beside the JSON (named after it), which lists their file names.
    for (const attachment of attachments) await fs.writeFile(`${file}-${path.basename(attachment.filename)}`, attachment.content);
    const listed = attachments.map(({ filename, contentType }) => ({ filename, contentType }));
    await fs.writeFile(file, JSON.stringify({ from: this.from, ...rest, attachments: listed }, null, 2));
    logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the local outbox');
  }

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await fs.mkdir(this.folder, { recursive: true });
      await fs.access(this.folder, fs.constants.W_OK);
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'outbox', path: this.folder, detail: result.detail };
  }
}
