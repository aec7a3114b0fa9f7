import nodemailer, { type SMTPSentMessageInfo, type Transporter } from 'nodemailer';
import type { MailTransport } from '@flotilla/model';
import type { Db } from '../db/db.js';

/**
 * Outgoing e-mail. With an SMTP URL, mail goes out through nodemailer; without one it is
 * only kept in the `email_outbox` table, which platform administrators read at
 * /v7/email_outbox. Either way every mail is recorded there (sent_via, and the SMTP error
 * when delivery failed; see docs/decisions.md).
 *
 * `send` never throws: a failure is logged, recorded and answered as `{ ok: false }`, so a
 * request that sends mail (an invitation) still succeeds when the mail server is down.
 */

export const DEFAULT_MAIL_FROM = 'Flotilla <no-reply@localhost>';
const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
}

export interface SendResult {
  /** True when the mail was delivered to the SMTP server or (without SMTP) kept in the outbox. */
  ok: boolean;
  via: MailTransport;
  /** The email_outbox row, or null when even recording it failed. */
  outboxId: number | null;
  /** Message-ID given by SMTP delivery. */
  messageId?: string;
  /** Why it failed (when `ok` is false). */
  error?: string;
}

/** The part of a pino/Fastify logger the mailer uses. */
export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** Where the outbox lives (the pool, not a request's transaction: the record outlives a rollback). */
  db: Db;
  /** `smtp://user:pass@host:587` or `smtps://…`; unset = outbox only. */
  smtpUrl?: string | undefined;
  /** From header; default `Flotilla <no-reply@localhost>`. */
  from?: string | undefined;
  /** FLOTILLA_PUBLIC_URL, the base of every link in a mail. */
  publicUrl?: string | undefined;
  log?: MailLog | undefined;
  /** SMTP timeouts in ms (connect, greeting, idle socket); defaults suit a request path. */
  timeouts?: { connection?: number; greeting?: number; socket?: number };
}

/** `base` + `path`, keeping any path prefix of the base (`https://x.org/flotilla` + `/a` → `/flotilla/a`). */
export function publicLink(baseUrl: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    throw new Error(`publicLink takes a path, not a URL: ${path}`);
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const rel = path.replace(/^\/+/, '');
  return new URL(`${prefix}/${rel}`, base.origin).toString();
}

/** The SMTP server's address without credentials, for logs. */
export function describeSmtpUrl(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  return `${u.protocol}//${u.host}`;
}

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

export class Mailer {
  readonly mode: MailTransport;
  readonly from: string;
  readonly publicUrl: string;
  private readonly db: Db;
  private log: MailLog | undefined;
  private readonly transport: Transporter<SMTPSentMessageInfo> | undefined;

  constructor(opts: MailerOptions) {
    this.db = opts.db;
    this.from = opts.from ?? DEFAULT_MAIL_FROM;
    this.publicUrl = opts.publicUrl ?? DEFAULT_PUBLIC_URL;
    this.log = opts.log;
    if (opts.smtpUrl) {
      this.mode = 'smtp';
      this.transport = nodemailer.createTransport(
        {
          url: opts.smtpUrl,
          connectionTimeout: opts.timeouts?.connection ?? 10_000,
          greetingTimeout: opts.timeouts?.greeting ?? 10_000,
          socketTimeout: opts.timeouts?.socket ?? 30_000,
        },
        { from: this.from },
      );
    } else {
      this.mode = 'outbox';
    }
  }

  /** Sets the logger when none was given (buildApp hands over the app's). */
  useLogger(log: MailLog): void {
    this.log ??= log;
  }

  /** An absolute link to a dashboard path, on FLOTILLA_PUBLIC_URL. */
  publicLink(path: string): string {
    return publicLink(this.publicUrl, path);
  }

  /** Sends (or keeps) one mail and records it in the outbox. Never throws. */
  async send(message: MailMessage): Promise<SendResult> {
    let error: string | undefined;
    let messageId: string | undefined;
    if (!ADDRESS.test(message.to)) {
      error = `invalid recipient address: ${message.to}`;
    } else if (this.transport) {
      try {
        const info = await this.transport.sendMail({
          from: this.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
        });
        if (info.rejected.length > 0) error = `recipient rejected: ${info.response}`;
        else messageId = info.messageId;
      } catch (err) {
        error = errorText(err);
      }
    }
    if (error !== undefined) this.log?.error({ to: message.to, subject: message.subject, err: error }, 'e-mail not sent');

    let outboxId: number | null = null;
    try {
      const { rows } = await this.db.query<{ id: number }>(
        `INSERT INTO email_outbox (recipient, subject, text_body, html_body, sent_via, error)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [message.to, message.subject, message.text, message.html ?? null, this.mode, error ?? null],
      );
      outboxId = rows[0]?.id ?? null;
    } catch (err) {
      this.log?.error({ to: message.to, subject: message.subject, err: errorText(err) }, 'e-mail not recorded in the outbox');
      // Without SMTP the outbox is the delivery: failing to record it is failing to send.
      if (this.mode === 'outbox' && error === undefined) error = `outbox: ${errorText(err)}`;
    }
    if (error === undefined) this.log?.info({ to: message.to, subject: message.subject, via: this.mode, outboxId }, 'e-mail sent');

    return {
      ok: error === undefined,
      via: this.mode,
      outboxId,
      ...(messageId !== undefined ? { messageId } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** Checks the SMTP connection and credentials (no-op without SMTP). Throws on failure. */
  async verify(): Promise<void> {
    if (this.transport) await this.transport.verify();
  }

  close(): void {
    this.transport?.close();
  }
}

/** The mailer the configuration asks for (see .env.example: SMTP_URL, FLOTILLA_MAIL_FROM). */
export function createMailer(
  db: Db,
  config: { SMTP_URL?: string | undefined; FLOTILLA_MAIL_FROM: string; FLOTILLA_PUBLIC_URL: string },
  log?: MailLog,
): Mailer {
  return new Mailer({ db, smtpUrl: config.SMTP_URL, from: config.FLOTILLA_MAIL_FROM, publicUrl: config.FLOTILLA_PUBLIC_URL, log });
}
