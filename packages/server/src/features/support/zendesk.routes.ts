import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_MESSAGES,
  SUPPORT_TICKETS_PAGE_MAX,
  TICKET_STATUSES,
  isSystemTicketField,
  supportRefusalMessage,
  ticketProblems,
  type TicketStatus,
  type TicketSubmission,
} from '@flotilla/model';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import { BadRequestError, ForbiddenError, HttpError, NotFoundError, PayloadTooLargeError } from '../../infra/errors.js';
import { parseMultipartBody } from '../../infra/files/multipart-body.js';
import { StoredWebResource } from '../../infra/odata/index.js';
import { refusalOf, requireMember, requirePrivateSupport, requireSignedIn } from './access.js';
import { MAILED_LINK_DAYS, PAGE_LINK_SECONDS, STALE_UPLOAD_MS, type Helpdesk } from './helpdesk.js';
import { newTicketMail, ticketReceivedMail } from './support-mail.js';
import {
  attachUploads,
  deleteStaleUploads,
  insertTicket,
  insertUpload,
  selectMessages,
  selectOwnUploads,
  selectRequester,
  selectTicket,
  selectTicketUploads,
  selectTickets,
  type FieldValue,
  type TicketRow,
} from './support.repository.js';
import { zendeskSsoUrl } from './zendesk-bridge.js';

const ID = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const orgParams = { type: 'object', required: ['org'], properties: { org: ID } } as const;
const PAGE = { limit: { type: 'integer', minimum: 1, maximum: SUPPORT_TICKETS_PAGE_MAX }, offset: { type: 'integer', minimum: 0, maximum: 1_000_000 } } as const;

/** The submit body: bounded here; the model's rules give the messages. */
const submitBody = {
  type: 'object',
  required: ['subject', 'comment'],
  additionalProperties: false,
  properties: {
    subject: { type: 'string', maxLength: 1000 },
    comment: {
      type: 'object',
      required: ['body'],
      additionalProperties: false,
      properties: { body: { type: 'string', maxLength: 30_000 }, uploads: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 64 } } },
    },
    custom_fields: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['id', 'value'],
        additionalProperties: false,
        properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, value: { type: ['string', 'boolean', 'null'], maxLength: 30_000 } },
      },
    },
    email_ccs: {
      type: 'array',
      maxItems: 50,
      items: { type: 'object', required: ['user_email'], additionalProperties: false, properties: { user_email: { type: 'string', maxLength: 320 } } },
    },
  },
} as const;

/** A ticket as its requester's organization reads it. */
export function ticketSummary(t: TicketRow) {
  return {
    id: t.id,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
    status: t.status,
    subject: t.subject,
    organization: { id: t.organization, name: t.organization_name, handle: t.organization_handle },
    requester: { id: t.requester, username: t.requester_username, email: t.requester_email },
  };
}

export async function ticketDetail(helpdesk: Helpdesk, t: TicketRow, origin: string) {
  const db = helpdesk.app.context.db;
  return {
    ...ticketSummary(t),
    description: t.description,
    email_ccs: t.cc_emails,
    fields: t.field_values,
    attachments: helpdesk.attachmentsOf(await selectTicketUploads(db, t.id), PAGE_LINK_SECONDS, origin),
    replies: (await selectMessages(db, t.id)).map((m) => ({ id: m.id, created_at: m.created_at.toISOString(), author: m.author_username, body: m.body })),
  };
}

export const originOf = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}`;

/**
 * Issue 19 item 1 (spec 3 §7 Support calls): the `/zendesk/v1/{org}/…` calls answered by the
 * built-in helpdesk, `GET /billing/v1/account/{org}/can-access-support`, the requester's own
 * ticket list, and `GET /zendesk/v1/login` (spec 1 §7) for the bridged portal.
 */
export async function zendeskRoutes(app: FastifyInstance, opts: { helpdesk: Helpdesk }): Promise<void> {
  const { helpdesk } = opts;
  const { db, mailer } = app.context;

  // Spec 3 §1/§7: any member may ask; billing off: open to every verified member.
  app.get<{ Params: { org: number } }>('/billing/v1/account/:org/can-access-support', { schema: { params: orgParams }, config: { noStore: true } }, async (request) => {
    const { requester } = await requireMember(app, request, request.params.org);
    return (await refusalOf(app, request.params.org, requester)) === null;
  });

  // Why not, for the dashboard's prompt (upgrade / verify): null when allowed.
  app.get<{ Params: { org: number } }>('/zendesk/v1/:org/access', { schema: { params: orgParams }, config: { noStore: true } }, async (request) => {
    const { requester, organization } = await requireMember(app, request, request.params.org);
    const refusal = await refusalOf(app, request.params.org, requester);
    return { allowed: refusal === null, reason: refusal, message: refusal ? supportRefusalMessage(refusal) : null, is_administrator: organization.role === 'administrator' };
  });

  app.get<{ Params: { org: number } }>('/zendesk/v1/:org/ticket-fields', { schema: { params: orgParams }, config: { noStore: true } }, async (request) => {
    await requireMember(app, request, request.params.org);
    return { ticket_fields: (await helpdesk.fields()).fields };
  });

  // Multipart: one file (any field name), streamed to the file store and bounded there.
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, payload, done) => done(null, payload));
    scope.post<{ Params: { org: number } }>(
      '/zendesk/v1/:org/upload-attachment',
      { schema: { params: orgParams }, config: { noStore: true, ownInput: `multipart/form-data with one file, streamed to the file store and refused past ${SUPPORT_ATTACHMENT_MAX_BYTES} bytes`, audit: { action: 'support.attachment.upload', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } },
      async (request, reply) => {
        const body = request.body as Readable | undefined;
        const drain = () => body?.resume?.();
        let uploader;
        try {
          uploader = await requireMember(app, request, request.params.org);
          await requirePrivateSupport(app, request.params.org, uploader.requester);
          if (!String(request.headers['content-type'] ?? '').startsWith('multipart/form-data') || !body || typeof body.pipe !== 'function') {
            throw new BadRequestError('Send the file as multipart/form-data');
          }
        } catch (err) {
          drain();
          throw err;
        }
        let parsed;
        try {
          parsed = await parseMultipartBody(request.headers, body, helpdesk.files.store, SUPPORT_ATTACHMENT_MAX_BYTES);
        } catch (err) {
          if (err instanceof HttpError && err.statusCode === 413) throw new PayloadTooLargeError(SUPPORT_MESSAGES.attachmentTooLarge);
          throw err;
        }
        const files = Object.values(parsed.body).filter((v): v is StoredWebResource => v instanceof StoredWebResource);
        const file = files[0]?.value;
        if (!file) throw new BadRequestError('No file was sent');
        const token = alphanumericSecret(192);
        try {
          await insertUpload(db, {
            token,
            organization: request.params.org,
            uploadedBy: uploader.actor.userId,
            fileKey: file.key,
            filename: file.filename,
            contentType: file.content_type,
            size: file.size,
          });
        } catch (err) {
          await helpdesk.files.discard(parsed.stored);
          throw err;
        }
        // Uploads nobody attached to a ticket within a day go (their files through the garbage queue).
        if ((await deleteStaleUploads(db, new Date(app.context.clock() - STALE_UPLOAD_MS))) > 0) await helpdesk.files.sweep();
        // Zendesk's answer to an upload: the token a ticket's comment.uploads names.
        return reply.code(201).send({ upload: { token, attachment: { file_name: file.filename, content_type: file.content_type, size: file.size } } });
      },
    );
  });

  app.post<{ Params: { org: number }; Body: TicketSubmission }>(
    '/zendesk/v1/:org/submit-ticket',
    { schema: { params: orgParams, body: submitBody }, config: { noStore: true, audit: { action: 'support.ticket.submit', targets: [{ resource: 'organization', from: 'params', field: 'org' }] } } },
    async (request, reply) => {
      const orgId = request.params.org;
      const { actor, organization, requester } = await requireMember(app, request, orgId);
      await requirePrivateSupport(app, orgId, requester);
      const { source, fields } = await helpdesk.fields();
      const problems = ticketProblems(fields, request.body);
      const first = Object.entries(problems)[0];
      if (first) {
        const [key, message] = first;
        const title = fields.find((f) => (isSystemTicketField(f.type) ? f.type : String(f.id)) === key)?.title_in_portal ?? key;
        throw new BadRequestError(`${title}: ${message}`);
      }
      const byId = new Map(fields.map((f) => [f.id, f]));
      const fieldValues: FieldValue[] = [];
      for (const c of request.body.custom_fields ?? []) {
        const f = byId.get(c.id)!;
        if (c.value === null || c.value === '' || (f.type === 'checkbox' && c.value === false)) continue;
        const value = typeof c.value === 'string' ? c.value.trim() : c.value;
        const display = f.type === 'tagger' ? (f.custom_field_options ?? []).find((o) => o.value === value)?.name ?? String(value) : f.type === 'checkbox' ? 'Yes' : String(value);
        fieldValues.push({ id: f.id, title: f.title_in_portal, type: f.type, value, display });
      }
      const ccEmails = [...new Set((request.body.email_ccs ?? []).map((c) => c.user_email.trim()))].filter((e) => e.toLowerCase() !== requester.email.toLowerCase());
      const tokens = [...new Set(request.body.comment.uploads ?? [])];
      const subject = request.body.subject.trim();
      const description = request.body.comment.body.trim();

      const { ticket, uploads } = await db.tx(async (tx) => {
        const uploads = await selectOwnUploads(tx, orgId, actor.userId, tokens);
        if (uploads.length !== tokens.length) throw new BadRequestError(SUPPORT_MESSAGES.unknownUpload);
        const id = await insertTicket(tx, { organization: orgId, requester, ccEmails, subject, description, fieldValues });
        await attachUploads(tx, id, uploads.map((u) => u.id));
        const info = {
          id,
          subject,
          description,
          organizationName: organization.name,
          organizationHandle: organization.handle,
          requesterUsername: requester.username,
          requesterEmail: requester.email,
          ccEmails,
          fieldValues,
          attachments: uploads.map((u) => ({ filename: u.filename, size: u.size, url: helpdesk.fileLink(u.file_key, MAILED_LINK_DAYS * 24 * 3600) })),
        };
        // Without FLOTILLA_SUPPORT_EMAIL the ticket is only stored and listed in /admin.
        const inbox = helpdesk.inbox;
        if (inbox) await mailer.queue(tx, { to: inbox, ...newTicketMail(info, mailer.publicLink('/admin'), MAILED_LINK_DAYS) });
        const received = ticketReceivedMail(info, mailer.publicLink('/support'));
        for (const to of [requester.email, ...ccEmails]) await mailer.queue(tx, { to, ...received });
        return { ticket: (await selectTicket(tx, id))!, uploads };
      });
      request.log.info({ ticket: ticket.id, organization: orgId, requester: actor.userId, attachments: uploads.length }, 'support ticket filed');
      const forwarded = await helpdesk.forward(ticket, source, uploads);
      return reply.code(201).send({
        request: { id: ticket.id, status: ticket.status, subject: ticket.subject, created_at: ticket.created_at.toISOString() },
        ...(forwarded ? { zendesk: 'zendeskId' in forwarded ? { id: forwarded.zendeskId, error: null } : { id: null, error: forwarded.error } } : {}),
      });
    },
  );

  // The requester's side of the thread: the organization's tickets and their replies (docs/decisions.md).
  app.get<{ Params: { org: number }; Querystring: { status?: TicketStatus; limit?: number; offset?: number } }>(
    '/zendesk/v1/:org/tickets',
    { schema: { params: orgParams, querystring: { type: 'object', properties: { status: { type: 'string', enum: [...TICKET_STATUSES] }, ...PAGE } } }, config: { noStore: true } },
    async (request) => {
      await requireMember(app, request, request.params.org);
      const { rows, total } = await selectTickets(db, { organization: request.params.org, status: request.query.status }, request.query.limit ?? 20, request.query.offset ?? 0);
      return { total, tickets: rows.map(ticketSummary) };
    },
  );

  app.get<{ Params: { org: number; id: number } }>(
    '/zendesk/v1/:org/tickets/:id',
    { schema: { params: { type: 'object', required: ['org', 'id'], properties: { org: ID, id: ID } } }, config: { noStore: true } },
    async (request) => {
      await requireMember(app, request, request.params.org);
      const ticket = await selectTicket(db, request.params.id);
      if (!ticket || ticket.organization !== request.params.org) throw new NotFoundError(SUPPORT_MESSAGES.ticketNotFound);
      return ticketDetail(helpdesk, ticket, originOf(request));
    },
  );

  // Spec 1 §7/§8: the bridged help center's sign-in for provider staff.
  app.get<{ Querystring: { return_to?: string } }>(
    '/zendesk/v1/login',
    { schema: { querystring: { type: 'object', properties: { return_to: { type: 'string', maxLength: 2000 } } } }, config: { noStore: true } },
    async (request) => {
      const actor = requireSignedIn(request);
      if (!actor.permissions.includes('support.home')) throw new ForbiddenError('You are not authorized to sign in to the support portal');
      const cfg = helpdesk.zendesk;
      if (!cfg?.ssoSecret) throw new NotFoundError('No external support portal is configured');
      const returnTo = request.query.return_to?.trim() || undefined;
      if (returnTo !== undefined && !sameOrigin(returnTo, cfg.url)) throw new BadRequestError('return_to must be an address on the support portal');
      const user = await selectRequester(db, actor.userId);
      if (!user) throw new NotFoundError('User not found');
      return { url: await zendeskSsoUrl({ ...cfg, ssoSecret: cfg.ssoSecret }, user, returnTo, app.context.clock()) };
    },
  );
}

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
