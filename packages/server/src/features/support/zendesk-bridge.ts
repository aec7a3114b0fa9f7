import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { TICKET_FIELD_TYPES, type TicketField, type TicketFieldType } from '@flotilla/model';
import type { ZendeskConfig } from '../../infra/app/context.js';
import { BadGatewayError } from '../../infra/errors.js';

/**
 * The optional Zendesk bridge (issue 19 item 1, docs/support.md): with FLOTILLA_ZENDESK_* set,
 * the ticket form's fields are read from Zendesk's Ticket Fields API, each ticket is also
 * created there through its Tickets API, and staff sign into its help center with Zendesk's
 * JWT single sign-on. Each call has a timeout (default 10 s); answers are bounded.
 */

export const ZENDESK_TIMEOUT_MS = 10_000;
const ANSWER_MAX_BYTES = 2 * 1024 * 1024;
/** How long a help-center sign-in JWT is good for (Zendesk refuses older `iat`s anyway). */
const SSO_JWT_SECONDS = 180;

/** What the operator reads when Zendesk cannot be reached. */
export function unreachableMessage(cfg: ZendeskConfig, what: string, why: string): string {
  return `The Zendesk helpdesk at ${hostOf(cfg.url)} could not be reached to ${what} (${why}). Try again in a few minutes; if it keeps failing, an operator should check FLOTILLA_ZENDESK_URL, FLOTILLA_ZENDESK_EMAIL and FLOTILLA_ZENDESK_TOKEN.`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function endpoint(cfg: ZendeskConfig, path: string): string {
  return `${cfg.url.replace(/\/+$/, '')}${path}`;
}

async function call(cfg: ZendeskConfig, what: string, path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(endpoint(cfg, path), {
      method: init.method,
      headers: {
        authorization: `Basic ${Buffer.from(`${cfg.email}/token:${cfg.token}`).toString('base64')}`,
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(cfg.timeoutMs ?? ZENDESK_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    const why = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError') ? 'no answer in time' : 'connection failed';
    throw new BadGatewayError(unreachableMessage(cfg, what, why));
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new BadGatewayError(unreachableMessage(cfg, what, `it answered HTTP ${res.status}`));
  if (text.length > ANSWER_MAX_BYTES) throw new BadGatewayError(unreachableMessage(cfg, what, 'its answer is too large'));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadGatewayError(unreachableMessage(cfg, what, 'its answer is not JSON'));
  }
}

interface ZendeskField {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  title_in_portal?: unknown;
  required_in_portal?: unknown;
  visible_in_portal?: unknown;
  editable_in_portal?: unknown;
  active?: unknown;
  position?: unknown;
  custom_field_options?: unknown;
}

const str = (v: unknown, max = 255): string => (typeof v === 'string' ? v.slice(0, max) : '');

/** The fields of Zendesk's ticket form the requester fills in, in our (Zendesk's) shape; others are left out. */
export async function zendeskTicketFields(cfg: ZendeskConfig): Promise<TicketField[]> {
  const answer = (await call(cfg, 'read the ticket fields', '/api/v2/ticket_fields.json', { method: 'GET' })) as { ticket_fields?: unknown };
  const list = Array.isArray(answer.ticket_fields) ? (answer.ticket_fields as ZendeskField[]) : [];
  const fields: TicketField[] = [];
  for (const f of list.slice(0, 500)) {
    const type = f.type as TicketFieldType;
    if (typeof f.id !== 'number' || !(TICKET_FIELD_TYPES as readonly string[]).includes(str(f.type))) continue;
    if (f.active === false || f.visible_in_portal === false || f.editable_in_portal === false) continue;
    const options = Array.isArray(f.custom_field_options)
      ? (f.custom_field_options as { name?: unknown; value?: unknown }[]).slice(0, 200).map((o) => ({ name: str(o.name, 100), value: str(o.value, 80) }))
      : null;
    fields.push({
      id: f.id,
      type,
      title: str(f.title, 100),
      title_in_portal: str(f.title_in_portal, 100) || str(f.title, 100),
      required_in_portal: f.required_in_portal === true || type === 'subject' || type === 'description',
      active: true,
      position: typeof f.position === 'number' ? f.position : 0,
      custom_field_options: type === 'tagger' ? (options ?? []) : null,
    });
  }
  return fields.sort((a, b) => a.position - b.position || a.id - b.id);
}

export interface ForwardedTicket {
  subject: string;
  body: string;
  requester: { name: string; email: string };
  ccEmails: readonly string[];
  /** Only when the fields came from Zendesk (their ids are Zendesk's). */
  customFields: { id: number; value: string | boolean }[];
  tags: string[];
}

/** Creates the ticket in Zendesk (Tickets API); its id there. */
export async function zendeskCreateTicket(cfg: ZendeskConfig, t: ForwardedTicket): Promise<number> {
  const answer = (await call(cfg, 'forward the ticket', '/api/v2/tickets.json', {
    method: 'POST',
    body: {
      ticket: {
        subject: t.subject,
        comment: { body: t.body, public: true },
        requester: t.requester,
        email_ccs: t.ccEmails.map((user_email) => ({ user_email, action: 'put' })),
        custom_fields: t.customFields,
        tags: t.tags,
      },
    },
  })) as { ticket?: { id?: unknown } };
  const id = answer.ticket?.id;
  if (typeof id !== 'number') throw new BadGatewayError(unreachableMessage(cfg, 'forward the ticket', 'its answer has no ticket id'));
  return id;
}

/**
 * Spec 1 §7: the help center's JWT sign-in URL for a user (Zendesk's JWT SSO: HS256 with the
 * shared secret, `jti`, `iat`, `email`, `name`, `external_id`), going on to `returnTo`.
 */
export async function zendeskSsoUrl(cfg: ZendeskConfig & { ssoSecret: string }, user: { id: number; username: string; email: string }, returnTo: string | undefined, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  const jwt = await new SignJWT({ email: user.email, name: user.username, external_id: `flotilla-${user.id}` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + SSO_JWT_SECONDS)
    .sign(new TextEncoder().encode(cfg.ssoSecret));
  const url = new URL(endpoint(cfg, '/access/jwt'));
  url.searchParams.set('jwt', jwt);
  if (returnTo) url.searchParams.set('return_to', returnTo);
  return url.toString();
}
