import type { ResourceDef } from '../types.js';

/** How an e-mail left the server: through SMTP, or kept only in the outbox (no SMTP_URL). */
export const MAIL_TRANSPORTS = ['smtp', 'outbox'] as const;
export type MailTransport = (typeof MAIL_TRANSPORTS)[number];

/** Delivery state: queued (waiting or between retries), sent, failed (retries exhausted). */
export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Every e-mail the server sends (see docs/decisions.md). Without SMTP_URL this table is the
 * only delivery: platform administrators read it at /v7/email_outbox. No other role has
 * any permission on it, and nothing is writable through the data API.
 */
export const email_outbox = {
  name: 'email_outbox',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'recipient', type: 'Text', required: true, writable: 'never' },
    { name: 'subject', type: 'Text', required: true, writable: 'never' },
    { name: 'text_body', type: 'Text', required: true, writable: 'never' },
    { name: 'html_body', type: 'Text', writable: 'never' },
    { name: 'sent_via', type: 'Short Text', required: true, writable: 'never', enum: MAIL_TRANSPORTS },
    // Why the last SMTP delivery attempt failed; null once it succeeded (or for outbox-only mail).
    { name: 'error', type: 'Text', writable: 'never' },
    { name: 'status', type: 'Short Text', required: true, default: "'queued'", writable: 'never', enum: MAIL_STATUSES },
    { name: 'attempts', type: 'Integer', required: true, default: '0', writable: 'never' },
    // When the next delivery attempt is due (queued mail only).
    { name: 'next_attempt_at', type: 'Date Time', writable: 'never' },
    { name: 'sent_at', type: 'Date Time', writable: 'never' },
  ],
  indexes: [['created_at']],
} as const satisfies ResourceDef;
