import type { FastifyInstance, FastifyRequest } from 'fastify';
import { odataReadIds } from '../../infra/odata/index.js';
import { NotFoundError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { auditLines, verifyChain } from './staff-audit.repository.js';

/**
 * The audit log's export and verification (issue 21 item 5; docs/audit-log.md):
 * - `GET /audit/v1/organization/:id/events.ndjson?after_id=&since=&until=&limit=`: the rows,
 *   one canonical JSON object per line with its hashes, in id order, a page of at most
 *   EXPORT_PAGE_ROWS rows; `x-next-after-id` names the next page's `after_id` when there is one.
 *   The rows are those `/v7/audit_event` reads for the caller (its read rule: the
 *   organization's administrators), so anybody else gets an empty export.
 * - `GET /audit/v1/organization/:id/verify`: the chain walked in the database, the first row
 *   that fails (ChainStatus); for those who may read the organization's log.
 */

/** Rows of one export page (one more is read to know whether another page follows, within the data API's largest page). */
export const EXPORT_PAGE_ROWS = 5_000;

const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;
const ISO = { type: 'string', maxLength: 40, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9:]+)?)?$' } as const;
const exportQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after_id: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
    since: ISO,
    until: ISO,
    limit: { type: 'integer', minimum: 1, maximum: EXPORT_PAGE_ROWS },
  },
} as const;

/** The signed-in user's data-API context (the log's read rule decides the rest). */
function contextOf(request: FastifyRequest) {
  const actor = requireUser(request);
  return { actorId: actor.actorId, permissions: actor.permissions };
}

export function auditLogRoutes(app: FastifyInstance): void {
  const db = app.context.db;

  app.get<{ Params: { id: number }; Querystring: { after_id?: number; since?: string; until?: string; limit?: number } }>(
    '/audit/v1/organization/:id/events.ndjson',
    { schema: { params, querystring: exportQuery }, config: { noStore: true } },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { id } = request.params;
      const limit = request.query.limit ?? EXPORT_PAGE_ROWS;
      const filter = [`organization eq ${id}`, `id gt ${request.query.after_id ?? 0}`];
      // The schema's pattern admits no quote: safe inside the literal.
      if (request.query.since) filter.push(`created_at ge '${request.query.since}'`);
      if (request.query.until) filter.push(`created_at lt '${request.query.until}'`);
      const ids = await odataReadIds(db, ctx, `/audit_event?$select=id&$filter=${encodeURIComponent(filter.join(' and '))}&$orderby=id asc&$top=${limit + 1}`);
      const more = ids.length > limit;
      const page = more ? ids.slice(0, limit) : ids;
      if (more) reply.header('x-next-after-id', String(page[page.length - 1]));
      const lines = await auditLines(db, page);
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-organization-${id}.ndjson"`)
        .send(lines.map((l) => `${l}\n`).join(''));
    },
  );

  app.get<{ Params: { id: number } }>('/audit/v1/organization/:id/verify', { schema: { params }, config: { noStore: true } }, async (request) => {
    const ctx = contextOf(request);
    const { id } = request.params;
    // Those who may read the log (any row of it), by the data API's read rule.
    const readable = await odataReadIds(db, ctx, `/audit_event?$select=id&$filter=organization eq ${id}&$top=1`);
    if (readable.length === 0) throw new NotFoundError('No audit log of this organization is readable');
    return verifyChain(db, id);
  });
}
