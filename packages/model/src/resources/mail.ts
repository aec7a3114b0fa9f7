import type { ResourceDef } from '../types.js';

/** How an e-mail left the server: through SMTP, or kept only in the outbox (no SMTP_URL). */
export const MAIL_TRANSPORTS = ['smtp', 'outbox'] as const;
export type MailTransport = (typeof MAIL_TRANSPORTS)[number];

/**
 * Every e-mail the server sends (see docs/decisions.md). Without SMTP_URL this table is the
 * only delivery: platform administrators read it at /v7/email_outbox. No other role has
 * any permission on it, and nothing is writable through the data API.
 */
export const email_outbox: ResourceDef = {
  name: 'email_outbox',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'recipient', type: 'Text', required: true, writable: 'never' },
    { name: 'subject', type: 'Text', required: true, writable: 'never' },
    { name: 'text_body', type: 'Text', required: true, writable: 'never' },
    { name: 'html_body', type: 'Text', writable: 'never' },
    { name: 'sent_via', type: 'Short Text', required: true, writable: 'never', enum: MAIL_TRANSPORTS },
    // Why SMTP delivery failed; null when it succeeded (or for outbox-only mail).
    { name: 'error', type: 'Text', writable: 'never' },
  ],
  indexes: [['created_at']],
};
