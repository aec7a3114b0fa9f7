/**
 * E-mail templates: one function per mail, returning the subject, a plain-text body and an
 * HTML body. Every interpolated value is HTML-escaped in the HTML body and folded onto one
 * line in the subject; links must be absolute http(s) URLs (build them with
 * `Mailer.publicLink`).
 */

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and (double- or single-quoted) attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** A value for the subject line: control characters and line breaks become spaces. */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** Refuses anything but an absolute http(s) URL, so no `javascript:` link reaches a mail. */
function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`mail link is not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`mail link must be http(s): ${url}`);
  return parsed.toString();
}

/** The shared HTML frame: paragraphs (already escaped), one button, a small-print footer (plain text). */
function htmlDocument(title: string, paragraphs: string[], action: { label: string; url: string }, footer: string): string {
  const url = escapeHtml(action.url);
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a;">',
    ...paragraphs.map((p) => `<p>${p}</p>`),
    `<p><a href="${url}" style="display: inline-block; padding: 8px 16px; background: #1565c0; color: #ffffff; text-decoration: none; border-radius: 4px;">${escapeHtml(action.label)}</a></p>`,
    `<p style="font-size: 12px; color: #666666;">Or open this link: <a href="${url}">${url}</a></p>`,
    `<p style="font-size: 12px; color: #666666;">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
}

/** A personal message from the inviter, quoted in both bodies. */
function quotedMessage(message: string | undefined): { text: string[]; html: string[] } {
  const m = message?.trim();
  if (!m) return { text: [], html: [] };
  return {
    text: ['Their message:', ...m.split(/\r?\n/).map((l) => `> ${l}`), ''],
    html: [`Their message:<br><em>${escapeHtml(m).replace(/\r?\n/g, '<br>')}</em>`],
  };
}

interface Invitation {
  /** Display name (or username) of the user who sent the invitation. */
  inviterName: string;
  /** Name of the role the invitee will have (e.g. `member`, `developer`). */
  roleName: string;
  /** Optional personal message from the inviter. */
  message?: string | undefined;
  /** Absolute link that accepts the invitation. */
  acceptUrl: string;
}

export interface OrganizationInvitation extends Invitation {
  organizationName: string;
}

export interface FleetInvitation extends Invitation {
  applicationName: string;
}

const IGNORE_NOTE = 'If you did not expect this invitation, you can ignore this e-mail.';

function invitation(kind: 'organization' | 'fleet', targetName: string, p: Invitation): RenderedMail {
  const acceptUrl = checkedUrl(p.acceptUrl);
  const subject = `${oneLine(p.inviterName)} invited you to the ${kind} ${oneLine(targetName)} on Flotilla`;
  const message = quotedMessage(p.message);
  const text = [
    `${p.inviterName} invited you to join the ${kind} "${targetName}" on Flotilla as ${p.roleName}.`,
    '',
    ...message.text,
    'Accept the invitation:',
    acceptUrl,
    '',
    IGNORE_NOTE,
    '',
  ].join('\n');
  const html = htmlDocument(
    subject,
    [
      `<strong>${escapeHtml(p.inviterName)}</strong> invited you to join the ${kind} <strong>${escapeHtml(targetName)}</strong> on Flotilla as <strong>${escapeHtml(p.roleName)}</strong>.`,
      ...message.html,
    ],
    { label: 'Accept the invitation', url: acceptUrl },
    IGNORE_NOTE,
  );
  return { subject, text, html };
}

/** An invitation to join an organization (spec 1, organization members). */
export function organizationInvitation(p: OrganizationInvitation): RenderedMail {
  return invitation('organization', p.organizationName, p);
}

/** An invitation to join a fleet (application membership). */
export function fleetInvitation(p: FleetInvitation): RenderedMail {
  return invitation('fleet', p.applicationName, p);
}

/** Verification of a new account's address (spec 1 §2; issue 6): links to the dashboard's verify route. */
export function emailVerification(p: { email: string; verifyUrl: string; validHours: number }): RenderedMail {
  const verifyUrl = checkedUrl(p.verifyUrl);
  const subject = 'Verify your email address for Flotilla';
  const note = `The link works once and expires in ${p.validHours} hours. If you did not create a Flotilla account, you can ignore this e-mail.`;
  const text = [`Please confirm that ${p.email} is your email address:`, verifyUrl, '', note, ''].join('\n');
  const html = htmlDocument(
    subject,
    [`Please confirm that <strong>${escapeHtml(p.email)}</strong> is your email address.`],
    { label: 'Verify email address', url: verifyUrl },
    note,
  );
  return { subject, text, html };
}

/** A password reset login code (spec 1 §2 /user/reset-password/{loginCode}). */
export function passwordReset(p: { resetUrl: string; validMinutes: number }): RenderedMail {
  const resetUrl = checkedUrl(p.resetUrl);
  const subject = 'Reset your Flotilla password';
  const note = `The link works once and expires in ${p.validMinutes} minutes. If you did not ask to reset your password, you can ignore this e-mail; your password stays as it is.`;
  const text = ['Someone (hopefully you) asked to reset the password of your Flotilla account. Choose a new password here:', resetUrl, '', note, ''].join(
    '\n',
  );
  const html = htmlDocument(
    subject,
    ['Someone (hopefully you) asked to reset the password of your Flotilla account.'],
    { label: 'Choose a new password', url: resetUrl },
    note,
  );
  return { subject, text, html };
}

/**
 * Someone tried to sign up with an address that already has an account (issue 11): the
 * sign-up was answered like any other, so only the owner learns of it, here.
 */
export function signUpAttempt(p: { loginUrl: string; resetUrl: string }): RenderedMail {
  const loginUrl = checkedUrl(p.loginUrl);
  const resetUrl = checkedUrl(p.resetUrl);
  const subject = 'Someone tried to sign up for Flotilla with your email address';
  const note = `If it was not you, you can ignore this e-mail: no account was created and yours is unchanged. If you forgot your password, reset it here: ${resetUrl}`;
  const text = [
    'Someone (hopefully you) tried to create a Flotilla account with this email address, which already has an account. No new account was created.',
    'If it was you, sign in instead:',
    loginUrl,
    '',
    note,
    '',
  ].join('\n');
  const html = htmlDocument(
    subject,
    ['Someone (hopefully you) tried to create a Flotilla account with this email address, which already has an account. No new account was created.'],
    { label: 'Sign in', url: loginUrl },
    note,
  );
  return { subject, text, html };
}

/** An issued invoice (issue 18): its number, total, due date, and where to download its PDF. */
export interface InvoiceIssued {
  organizationName: string;
  invoiceNumber: string;
  /** Formatted total, e.g. `$99.00 USD`. */
  total: string;
  /** Paid already (a card charge): no payment is asked for. */
  paid?: boolean | undefined;
  /** `YYYY-MM-DD`; null: due on receipt. */
  dueOn: string | null;
  /** Absolute link to the organization's billing page, where the PDF is downloaded. */
  billingUrl: string;
  /** How to pay (the manual provider's instructions), when the invoice waits for payment. */
  paymentInstructions?: string | undefined;
}

export function invoiceIssued(p: InvoiceIssued): RenderedMail {
  const url = checkedUrl(p.billingUrl);
  const subject = `Invoice ${oneLine(p.invoiceNumber)} for ${oneLine(p.organizationName)}: ${oneLine(p.total)}`;
  const due = p.paid ? 'It is paid: no action is needed.' : p.dueOn ? `It is due on ${p.dueOn}.` : 'It is due on receipt.';
  const how = !p.paid && p.paymentInstructions?.trim() ? p.paymentInstructions.trim() : undefined;
  const footer = 'You receive this e-mail because it is the billing e-mail of this organization (or you administer it).';
  const text = [
    `Invoice ${p.invoiceNumber} for the organization "${p.organizationName}" totals ${p.total}.`,
    due,
    '',
    ...(how ? ['How to pay:', how, `Please quote ${p.invoiceNumber} with your payment.`, ''] : []),
    'Download the invoice (PDF) from the billing page:',
    url,
    '',
    footer,
    '',
  ].join('\n');
  const html = htmlDocument(
    subject,
    [
      `Invoice <strong>${escapeHtml(p.invoiceNumber)}</strong> for the organization <strong>${escapeHtml(p.organizationName)}</strong> totals <strong>${escapeHtml(p.total)}</strong>.`,
      escapeHtml(due),
      ...(how ? [`How to pay:<br>${escapeHtml(how).replace(/\r?\n/g, '<br>')}<br>Please quote ${escapeHtml(p.invoiceNumber)} with your payment.`] : []),
    ],
    { label: 'Download the invoice', url },
    footer,
  );
  return { subject, text, html };
}

/** Issue 18 item 7: an organization's available credits fell below its notification threshold. */
export function lowCredits(p: { organizationName: string; balance: number; threshold: number; creditsUrl: string }): RenderedMail {
  const creditsUrl = checkedUrl(p.creditsUrl);
  const subject = oneLine(`Credits of ${p.organizationName} are running low`);
  const line = `${p.organizationName} has ${p.balance.toLocaleString('en-US')} device credits left, below the ${p.threshold.toLocaleString('en-US')} at which you asked to be told.`;
  const note = 'You receive this because you are a billing contact of the organization. The notification is sent once each time the balance falls below the threshold; change or turn it off on the credits page.';
  const text = [line, 'Buy more credits here:', creditsUrl, '', note, ''].join('\n');
  const html = htmlDocument(subject, [escapeHtml(line)], { label: 'Buy credits', url: creditsUrl }, note);
  return { subject, text, html };
}
