import nodemailer, { type SMTPSentMessageInfo, type Transporter } from 'nodemailer';
import type { MailStatus, MailTransport } from '@flotilla/model';
import type { Db } from '../db/db.js';

/**
 * Outgoing e-mail. With an SMTP URL, mail goes out through nodemailer; without one it is
 * only kept in the `email_outbox` table, which platform administrators read at
 * /v7/email_outbox. Either way every mail is recorded there (see docs/decisions.md).
 *
 * Delivery is durable: `queue` records the mail in the caller's transaction (a rollback
 * takes it away); without SMTP that row is the delivery (kept, status sent). With SMTP the
 * mail is handed to delivery once that transaction commits — to the job runner
 * when one runs (`useDispatcher`), else at once in-process. A failed SMTP attempt leaves the
 * mail queued with the error and a later `next_attempt_at` (1 min, 5 min, 30 min, 2 h); after
 * five attempts it is `failed`. `deliverDue` (a cron job) retries what is due, including mail
 * whose process died mid-attempt. Nothing here throws at the caller: mail trouble never
 * fails the request that sent it.
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

/** Delivery attempts before a mail is given up as failed, and the waits between them. */
export const MAIL_MAX_ATTEMPTS = 5;
export const MAIL_RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200] as const;

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

interface MailRow {
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
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

  /**
   * Where committed mail goes for delivery: the job runner's queue in a server with jobs
   * (app.ts). Without one, queued mail is delivered in-process right after commit.
   */
  useDispatcher(dispatch: (outboxId: number) => Promise<unknown>): void {
    this.dispatch = dispatch;
  }

  private dispatch: ((outboxId: number) => Promise<unknown>) | undefined;

  /**
   * Records `message` as queued through `db` (the caller's transaction) and delivers it once
   * that commits. Returns the outbox id. A malformed recipient is recorded as failed at once.
   */
  async queue(db: Db, message: MailMessage): Promise<number | null> {
    const id = await this.record(db, message);
    // Without SMTP the outbox row is the delivery: it is kept (sent) as it is recorded.
    if (id !== null && this.transport) {
      db.afterCommit(async () => {
        if (this.dispatch) await this.dispatch(id);
        else await this.deliver(id);
      });
    }
    return id;
  }

  /** Records one mail outside any transaction and makes its first delivery attempt now. Never throws. */
  async send(message: MailMessage): Promise<SendResult> {
    let outboxId: number | null;
    try {
      outboxId = await this.record(this.db, message);
    } catch (err) {
      this.log?.error({ to: message.to, subject: message.subject, err: errorText(err) }, 'e-mail not recorded in the outbox');
      return { ok: false, via: this.mode, outboxId: null, error: `outbox: ${errorText(err)}` };
    }
    if (outboxId === null) return { ok: false, via: this.mode, outboxId: null, error: `invalid recipient address: ${message.to}` };
    try {
      await this.deliver(outboxId);
    } catch (err) {
      // The database failed between claim and outcome: the mail stays queued for the retry job.
      this.log?.error({ to: message.to, subject: message.subject, err: errorText(err) }, 'e-mail delivery not recorded');
    }
    const { rows } = await this.db.query<{ status: MailStatus; error: string | null }>('SELECT status, error FROM email_outbox WHERE id = $1', [
      outboxId,
    ]);
    const error = rows[0]?.status === 'sent' ? undefined : (rows[0]?.error ?? 'not delivered yet');
    const messageId = this.lastMessageIds.get(outboxId);
    return {
      ok: error === undefined,
      via: this.mode,
      outboxId,
      ...(messageId !== undefined ? { messageId } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** Inserts the outbox row: queued, or failed at once for a malformed recipient (then null). */
  private async record(db: Db, message: MailMessage): Promise<number | null> {
    const invalid = ADDRESS.test(message.to) ? undefined : `invalid recipient address: ${message.to}`;
    const kept = !invalid && !this.transport;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO email_outbox (recipient, subject, text_body, html_body, sent_via, error, status, attempts, next_attempt_at, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        message.to,
        message.subject,
        message.text,
        message.html ?? null,
        this.mode,
        invalid ?? null,
        invalid ? 'failed' : kept ? 'sent' : 'queued',
        kept ? 1 : 0,
        kept || invalid ? null : new Date(0),
        kept ? new Date() : null,
      ],
    );
    if (invalid !== undefined) {
      this.log?.error({ to: message.to, subject: message.subject, err: invalid }, 'e-mail not sent');
      return null;
    }
    return rows[0]?.id ?? null;
  }

  // Message-IDs of recent SMTP deliveries, for `send`'s answer (not worth a column).
  private readonly lastMessageIds = new Map<number, string>();

  /**
   * One delivery attempt of a queued mail that is due. The attempt is claimed first (the
   * count goes up and the next attempt moves into the future), so concurrent deliverers never
   * send a mail twice, and a process that dies mid-attempt leaves it for `deliverDue`.
   * Returns the mail's status afterwards, or undefined when it was not due or not queued.
   */
  async deliver(outboxId: number): Promise<MailStatus | undefined> {
    const { rows } = await this.db.query<MailRow>(
      `UPDATE email_outbox
          SET attempts = attempts + 1,
              next_attempt_at = now() + make_interval(secs => ($2::int[])[least(attempts + 1, array_length($2::int[], 1))])
        WHERE id = $1 AND status = 'queued' AND next_attempt_at <= now()
        RETURNING recipient, subject, text_body, html_body, attempts`,
      [outboxId, MAIL_RETRY_DELAYS_SECONDS],
    );
    const mail = rows[0];
    if (!mail) return undefined;
    let error: string | undefined;
    if (this.transport) {
      try {
        const info = await this.transport.sendMail({
          from: this.from,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.text_body,
          ...(mail.html_body !== null ? { html: mail.html_body } : {}),
        });
        if (info.rejected.length > 0) error = `recipient rejected: ${info.response}`;
        else {
          this.lastMessageIds.set(outboxId, info.messageId);
          if (this.lastMessageIds.size > 100) this.lastMessageIds.delete(this.lastMessageIds.keys().next().value!);
        }
      } catch (err) {
        error = errorText(err);
      }
    }
    const status: MailStatus = error === undefined ? 'sent' : mail.attempts >= MAIL_MAX_ATTEMPTS ? 'failed' : 'queued';
    await this.db.query(
      `UPDATE email_outbox SET status = $2::text, error = $3,
              sent_at = CASE WHEN $2::text = 'sent' THEN now() END,
              next_attempt_at = CASE WHEN $2::text = 'queued' THEN next_attempt_at END
        WHERE id = $1`,
      [outboxId, status, error ?? null],
    );
    if (error !== undefined) {
      this.log?.error({ to: mail.recipient, subject: mail.subject, err: error, attempt: mail.attempts, status }, 'e-mail not sent');
    } else {
      this.log?.info({ to: mail.recipient, subject: mail.subject, via: this.mode, outboxId }, 'e-mail sent');
    }
    return status;
  }

  /**
   * Delivers the queued mail whose next attempt is due (the retry job), `batch` at a time until
   * none is due or `budgetMs` has passed. Returns how many were tried. After a crash the backlog
   * can be hundreds of mails (queued but never handed to the job queue): one batch a minute
   * took minutes to clear it (docs/crash-safety.md). A tried mail is sent or due later, so
   * no batch sees it again.
   */
  async deliverDue(batch = 50, budgetMs = 45_000): Promise<number> {
    const end = Date.now() + budgetMs;
    let tried = 0;
    for (;;) {
      const { rows } = await this.db.query<{ id: number }>(
        `SELECT id FROM email_outbox WHERE status = 'queued' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1`,
        [batch],
      );
      for (const { id } of rows) await this.deliver(id);
      tried += rows.length;
      if (rows.length < batch || Date.now() > end) return tried;
    }
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
