import type { FastifyInstance } from 'fastify';
import {
  SUPPORT_FIELDS_MAX,
  SUPPORT_MESSAGES,
  SUPPORT_OPTIONS_MAX,
  SUPPORT_REPLY_MAX,
  SUPPORT_TICKETS_PAGE_MAX,
  TICKET_FIELD_TYPES,
  TICKET_STATUSES,
  replyProblem,
  ticketFieldProblem,
  type TicketFieldInput,
  type TicketStatus,
} from '@flotilla/model';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';
import { requireFieldEditor, requireStaff } from './access.js';
import type { Helpdesk } from './helpdesk.js';
import { ticketReplyMail } from './support-mail.js';
import {
  countFields,
  insertField,
  insertMessage,
  reorderFields,
  selectField,
  selectFields,
  selectTicket,
  selectTickets,
  selectUsername,
  setTicketStatus,
  updateField,
} from './support.repository.js';
import { originOf, ticketDetail, ticketSummary } from './zendesk.routes.js';

const ID = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: ID } } as const;
const PAGE = { limit: { type: 'integer', minimum: 1, maximum: SUPPORT_TICKETS_PAGE_MAX }, offset: { type: 'integer', minimum: 0, maximum: 1_000_000 } } as const;

const fieldBody = {
  type: 'object',
  required: ['type', 'title', 'title_in_portal', 'required_in_portal', 'active'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...TICKET_FIELD_TYPES] },
    title: { type: 'string', maxLength: 200 },
    title_in_portal: { type: 'string', maxLength: 200 },
    required_in_portal: { type: 'boolean' },
    active: { type: 'boolean' },
    custom_field_options: {
      type: ['array', 'null'],
      maxItems: SUPPORT_OPTIONS_MAX + 1,
      items: { type: 'object', required: ['name', 'value'], additionalProperties: false, properties: { name: { type: 'string', maxLength: 200 }, value: { type: 'string', maxLength: 200 } } },
    },
  },
} as const;

type FieldBody = Omit<TicketFieldInput, 'custom_field_options'> & { custom_field_options?: TicketFieldInput['custom_field_options'] };
const input = (b: FieldBody): TicketFieldInput => ({ ...b, custom_field_options: b.custom_field_options ?? null });

/**
 * Issue 19 item 1: the staff side of the helpdesk in /admin. Support agents and platform
 * administrators read the ticket fields and the tickets, reply and close; only platform
 * administrators change the fields. Everyone else: 403.
 */
export async function supportAdminRoutes(app: FastifyInstance, opts: { helpdesk: Helpdesk }): Promise<void> {
  const { helpdesk } = opts;
  const { db, mailer } = app.context;

  app.get('/admin/v1/support/ticket-fields', { schema: {}, config: { noStore: true } }, async (request) => {
    requireStaff(request);
    return { ticket_fields: await selectFields(db, false) };
  });

  app.post<{ Body: FieldBody }>('/admin/v1/support/ticket-fields', { schema: { body: fieldBody }, config: { noStore: true } }, async (request, reply) => {
    const admin = requireFieldEditor(request);
    const field = input(request.body);
    const problem = ticketFieldProblem(field);
    if (problem) throw new BadRequestError(problem);
    const created = await db.tx(async (tx) => {
      if ((await countFields(tx)) >= SUPPORT_FIELDS_MAX) throw new BadRequestError(SUPPORT_MESSAGES.tooManyFields);
      return insertField(tx, field);
    });
    request.log.info({ administratorId: admin.userId, field: created.id }, 'ticket field added');
    return reply.code(201).send(created);
  });

  app.patch<{ Params: { id: number }; Body: FieldBody }>(
    '/admin/v1/support/ticket-fields/:id',
    { schema: { params: idParams, body: fieldBody }, config: { noStore: true } },
    async (request) => {
      const admin = requireFieldEditor(request);
      const field = input(request.body);
      const updated = await db.tx(async (tx) => {
        const existing = await selectField(tx, request.params.id, true);
        if (!existing) throw new NotFoundError(SUPPORT_MESSAGES.fieldNotFound);
        const problem = ticketFieldProblem(field, existing);
        if (problem) throw new BadRequestError(problem);
        return updateField(tx, existing.id, field);
      });
      request.log.info({ administratorId: admin.userId, field: updated.id }, 'ticket field changed');
      return updated;
    },
  );

  app.put<{ Body: { ids: number[] } }>(
    '/admin/v1/support/ticket-fields/order',
    {
      schema: { body: { type: 'object', required: ['ids'], additionalProperties: false, properties: { ids: { type: 'array', maxItems: SUPPORT_FIELDS_MAX, items: ID } } } },
      config: { noStore: true },
    },
    async (request) => {
      requireFieldEditor(request);
      return db.tx(async (tx) => {
        await countFields(tx);
        const all = await selectFields(tx, false);
        const ids = request.body.ids;
        if (ids.length !== all.length || new Set(ids).size !== ids.length || !all.every((f) => ids.includes(f.id))) {
          throw new BadRequestError('Give every ticket field id once, in the new order');
        }
        await reorderFields(tx, ids);
        return { ticket_fields: await selectFields(tx, false) };
      });
    },
  );

  app.get<{ Querystring: { status?: TicketStatus; limit?: number; offset?: number } }>(
    '/admin/v1/support/tickets',
    { schema: { querystring: { type: 'object', properties: { status: { type: 'string', enum: [...TICKET_STATUSES] }, ...PAGE } } }, config: { noStore: true } },
    async (request) => {
      requireStaff(request);
      const { rows, total } = await selectTickets(db, { status: request.query.status }, request.query.limit ?? 20, request.query.offset ?? 0);
      return { total, tickets: rows.map((t) => ({ ...ticketSummary(t), forward_error: t.forward_error, zendesk_id: t.zendesk_id })) };
    },
  );

  app.get<{ Params: { id: number } }>('/admin/v1/support/tickets/:id', { schema: { params: idParams }, config: { noStore: true } }, async (request) => {
    requireStaff(request);
    const ticket = await selectTicket(db, request.params.id);
    if (!ticket) throw new NotFoundError(SUPPORT_MESSAGES.ticketNotFound);
    return { ...(await ticketDetail(helpdesk, ticket, originOf(request))), forward_error: ticket.forward_error, zendesk_id: ticket.zendesk_id };
  });

  app.post<{ Params: { id: number }; Body: { body: string } }>(
    '/admin/v1/support/tickets/:id/replies',
    {
      schema: { params: idParams, body: { type: 'object', required: ['body'], additionalProperties: false, properties: { body: { type: 'string', maxLength: SUPPORT_REPLY_MAX + 1000 } } } },
      // The ticket's organization is named by the handler (tickets are not a data-API resource).
      config: { noStore: true, audit: { action: 'support.ticket.reply' } },
    },
    async (request, reply) => {
      const agent = requireStaff(request);
      const problem = replyProblem(request.body.body);
      if (problem) throw new BadRequestError(problem);
      const body = request.body.body.trim();
      const message = await db.tx(async (tx) => {
        const ticket = await selectTicket(tx, request.params.id, true);
        if (!ticket) throw new NotFoundError(SUPPORT_MESSAGES.ticketNotFound);
        if (ticket.status === 'closed') throw new BadRequestError(SUPPORT_MESSAGES.closed);
        request.auditTargets = [{ resource: 'organization', ids: [ticket.organization] }];
        const author = await selectUsername(tx, agent.userId);
        const m = await insertMessage(tx, { ticket: ticket.id, author: agent.userId, authorUsername: author, body });
        await setTicketStatus(tx, ticket.id, 'answered');
        const mail = ticketReplyMail(ticket, { author, body }, mailer.publicLink('/support'));
        for (const to of [ticket.requester_email, ...ticket.cc_emails]) await mailer.queue(tx, { to, ...mail });
        return m;
      });
      request.log.info({ agentId: agent.userId, ticket: request.params.id }, 'support ticket answered');
      return reply.code(201).send({ id: message.id, created_at: message.created_at.toISOString(), author: message.author_username, body: message.body });
    },
  );

  app.patch<{ Params: { id: number }; Body: { status: 'open' | 'closed' } }>(
    '/admin/v1/support/tickets/:id',
    {
      schema: { params: idParams, body: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', enum: ['open', 'closed'] } } } },
      config: { noStore: true, audit: { action: 'support.ticket.status' } },
    },
    async (request) => {
      const agent = requireStaff(request);
      await db.tx(async (tx) => {
        const ticket = await selectTicket(tx, request.params.id, true);
        if (!ticket) throw new NotFoundError(SUPPORT_MESSAGES.ticketNotFound);
        await setTicketStatus(tx, ticket.id, request.body.status);
        request.auditTargets = [{ resource: 'organization', ids: [ticket.organization] }];
      });
      request.log.info({ agentId: agent.userId, ticket: request.params.id, status: request.body.status }, 'support ticket status changed');
      return ticketSummary((await selectTicket(db, request.params.id))!);
    },
  );
}
