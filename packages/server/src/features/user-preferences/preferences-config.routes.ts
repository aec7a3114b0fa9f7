import type { FastifyInstance } from 'fastify';

/**
 * `GET /config/preferences`: deployment settings the preferences page needs. Today whether
 * this is a staging deployment (FLOTILLA_STAGING), which alone offers the navigation stripes
 * appearance preference (spec 1 §2). Unauthenticated and secret-free, like /config/dashboard.
 */
export async function preferencesConfigRoutes(app: FastifyInstance, opts: { staging: boolean }): Promise<void> {
  const body = { staging: opts.staging };
  app.get(
    '/config/preferences',
    { schema: { response: { 200: { type: 'object', required: ['staging'], properties: { staging: { type: 'boolean' } } } } } },
    async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(body),
  );
}
