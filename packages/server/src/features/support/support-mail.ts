import { escapeHtml, type RenderedMail } from '../../infra/mail/index.js';
import type { FieldValue } from './support.repository.js';

/**
 * The helpdesk's mails (issue 19 item 1): a new ticket to the support inbox, the requester's
 * (and cc's) confirmation, and a support agent's reply. Attachments travel as signed download
 * links, not as MIME parts (docs/decisions.md).
 */

export interface MailAttachment {
  filename: string;
  size: number;
  url: string;
}

export interface TicketMailInfo {
  id: number;
  subject: string;
  description: string;
  organizationName: string;
  organizationHandle: string;
  requesterUsername: string;
  requesterEmail: string;
  ccEmails: readonly string[];
  fieldValues: readonly FieldValue[];
  attachments: readonly MailAttachment[];
}

// eslint-disable-next-line no-control-regex
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function html(title: string, blocks: string[]): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a;">',
    ...blocks,
    '</body></html>',
  ].join('\n');
}

const paragraph = (text: string) => `<p>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;
const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;

export const ticketTag = (id: number) => `[Support #${id}]`;

/** To FLOTILLA_SUPPORT_EMAIL: everything an agent needs, and where to answer it. */
export function newTicketMail(t: TicketMailInfo, adminUrl: string, linkDays: number): RenderedMail {
  const subject = oneLine(`${ticketTag(t.id)} ${t.subject}`);
  const facts: [string, string][] = [
    ['Organization', `${t.organizationName} (${t.organizationHandle})`],
    ['Requester', `${t.requesterUsername} <${t.requesterEmail}>`],
    ...(t.ccEmails.length > 0 ? [['Cc', t.ccEmails.join(', ')] as [string, string]] : []),
    ...t.fieldValues.map((f) => [f.title, f.display] as [string, string]),
  ];
  const files = t.attachments.map((a) => `${a.filename} (${size(a.size)}): ${a.url}`);
  const text = [
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    t.description,
    '',
    ...(files.length > 0 ? [`Attachments (links work for ${linkDays} days):`, ...files, ''] : []),
    `Answer it in the administration area: ${adminUrl}`,
    '',
  ].join('\n');
  const body = html(subject, [
    `<table>${facts.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    paragraph(t.description),
    ...(t.attachments.length > 0
      ? [
          `<p>Attachments (links work for ${linkDays} days):</p><ul>${t.attachments.map((a) => `<li>${link(a.url, a.filename)} (${escapeHtml(size(a.size))})</li>`).join('')}</ul>`,
        ]
      : []),
    `<p>Answer it in the ${link(adminUrl, 'administration area')}.</p>`,
  ]);
  return { subject, text, html: body };
}

/** To the requester and each cc: the ticket was received. */
export function ticketReceivedMail(t: Pick<TicketMailInfo, 'id' | 'subject' | 'description' | 'organizationName'>, supportUrl: string): RenderedMail {
  const subject = oneLine(`${ticketTag(t.id)} We received your request: ${t.subject}`);
  const line = `Your support request #${t.id} for ${t.organizationName} was received. A support agent will answer by e-mail; the replies are also on the support page.`;
  const text = [line, '', 'Your request:', ...t.description.split(/\r?\n/).map((l) => `> ${l}`), '', `Support page: ${supportUrl}`, ''].join('\n');
  return { subject, text, html: html(subject, [paragraph(line), `<blockquote>${paragraph(t.description)}</blockquote>`, `<p>${link(supportUrl, 'Open the support page')}</p>`]) };
}

/** To the requester and each cc: a support agent answered. */
export function ticketReplyMail(t: { id: number; subject: string }, reply: { author: string; body: string }, supportUrl: string): RenderedMail {
  const subject = oneLine(`${ticketTag(t.id)} Re: ${t.subject}`);
  const line = `${reply.author} from support answered your request #${t.id}:`;
  const text = [line, '', reply.body, '', `All replies are on the support page: ${supportUrl}`, ''].join('\n');
  return { subject, text, html: html(subject, [paragraph(line), `<blockquote>${paragraph(reply.body)}</blockquote>`, `<p>${link(supportUrl, 'Open the support page')}</p>`]) };
}
