/** Outgoing e-mail: the Mailer (SMTP or outbox) and the mail templates. Features use `app.mailer`. */
export { Mailer, createMailer, publicLink, describeSmtpUrl, DEFAULT_MAIL_FROM, type MailMessage, type MailerOptions, type MailLog, type SendResult } from './mailer.js';
export { escapeHtml, organizationInvitation, fleetInvitation, emailVerification, passwordReset, invoiceIssued, type InvoiceIssued, type RenderedMail, type OrganizationInvitation, type FleetInvitation } from './templates.js';
