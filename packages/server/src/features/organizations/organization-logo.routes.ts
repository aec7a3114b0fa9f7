import { EMPTY_BODY } from '../../infra/http/schemas.js';
import type { FastifyInstance } from 'fastify';
import { LOGO_MAX_BYTES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { odataPatch, odataRead } from '../../infra/odata/index.js';
import { logoDataUrl } from './organization-logo.js';

/**
 * `PUT /organization/{id}/logo` with the image itself as the body (image/png or image/jpeg)
 * and `DELETE` to remove it. A 1,000,000-byte image does not fit a 1 MB JSON body once
 * base64-encoded, hence a raw upload. The write goes through the data API, so the
 * organization's update rule decides who may change it.
 */
export async function organizationLogoRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.addContentTypeParser(['image/png', 'image/jpeg', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES + 1 }, (_req, body, done) =>
    done(null, body),
  );

  async function setLogo(actorId: number, permissions: readonly string[], id: number, value: string | null): Promise<void> {
    const ctx = { actorId, permissions };
    const changed = await odataPatch(app.context, db, ctx, `/organization(${id})`, { logo_image: value });
    if (changed.length === 0) {
      const visible = await odataRead(db, ctx, `/organization(${id})?$select=id`);
      throw visible.length > 0 ? new UnauthorizedError() : new NotFoundError('Organization not found');
    }
  }

  const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

  app.put<{ Params: { id: number }; Body: Buffer }>(
    '/organization/:id/logo',
    {
      schema: { params },
      config: { ownInput: 'the image itself (PNG/JPEG, LOGO_MAX_BYTES), checked by logoDataUrl', audit: { action: 'organization.logo.set', targets: [{ resource: 'organization', from: 'params', field: 'id' }] } },
    },
    async (request, reply) => {
    const actor = requireUser(request);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    await setLogo(actor.actorId, actor.permissions, request.params.id, logoDataUrl(body));
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: number } }>(
    '/organization/:id/logo',
    { schema: { params, body: EMPTY_BODY }, config: { audit: { action: 'organization.logo.remove', targets: [{ resource: 'organization', from: 'params', field: 'id' }] } } }, async (request, reply) => {
    const actor = requireUser(request);
    await setLogo(actor.actorId, actor.permissions, request.params.id, null);
    return reply.code(204).send();
  });
}
