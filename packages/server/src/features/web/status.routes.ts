import type { FastifyInstance } from 'fastify';
import type { StatusFeedConfig } from '../../infra/app/context.js';
import { STATUS_INDICATORS, statusFeedReader } from './status-feed.js';

/**
 * `GET /config/status` (issue 19; spec 3 §4 Connectivity and bootstrap): the configured
 * status page's summary for the header's indicator and the incident banner. The browser never
 * calls the status host itself (the dashboard's connect-src is 'self'): the server reads the
 * feed (5 s timeout, 256 KiB at most, one read per 30 s whoever asks) and answers
 * `{ configured: true, indicator, description, incidents }`, `indicator: 'unknown'` when the
 * feed cannot be read. Without FLOTILLA_STATUS_FEED_URL: `{ configured: false }`.
 * Unauthenticated and secret-free, like /config/dashboard.
 */
export async function statusRoutes(app: FastifyInstance, opts: { feed?: StatusFeedConfig | undefined }): Promise<void> {
  const { feed } = opts;
  const read = feed ? statusFeedReader(feed, app.context.clock) : undefined;
  app.get(
    '/config/status',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['configured'],
            properties: {
              configured: { type: 'boolean' },
              indicator: { type: 'string', enum: [...STATUS_INDICATORS] },
              description: { type: 'string' },
              incidents: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string' }, status: { type: 'string' }, impact: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      if (!read) return reply.send({ configured: false });
      return reply.send({ configured: true, ...(await read()) });
    },
  );
}
