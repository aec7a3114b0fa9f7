import type { FastifyInstance } from 'fastify';
import { etagMatches, negotiateEncoding, varyOnAcceptEncoding } from '../../infra/http/compression.js';
import { registryHostOf } from '../registry/index.js';
import { installScript } from './install-script.js';

/**
 * How a device gets Flotilla's agent (issue 14, the Add device dialog's Linux way in), both
 * public like the agent's source:
 * - `GET /download/agent`: the agent as one ES module that runs with Node ≥ 20 alone. Bundled
 *   from packages/agent at the first request and kept in memory (a second or two, once per
 *   server start), gzipped once; a strong content-hash ETag answers If-None-Match with 304.
 * - `GET /download/agent/install.sh`: the POSIX sh installer the dialog's command pipes to sh.
 */
export async function provisioningRoutes(app: FastifyInstance): Promise<void> {
  const bundle = app.agentBundle;

  app.get('/download/agent', { config: { compress: false } }, async (request, reply) => {
    const agent = await bundle();
    const coding = negotiateEncoding(request.headers['accept-encoding'], ['gzip']);
    varyOnAcceptEncoding(reply);
    reply
      .header('cache-control', 'no-cache')
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-disposition', 'attachment; filename="flotilla-agent.mjs"')
      .header('etag', coding === 'gzip' ? `W/${agent.etag}` : agent.etag);
    if (etagMatches(request.headers['if-none-match'], agent.etag)) return reply.code(304).send();
    if (coding === 'gzip') return reply.header('content-encoding', 'gzip').send(agent.gzipped);
    return reply.send(agent.body);
  });

  app.get('/download/agent/install.sh', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').header('content-type', 'text/x-shellscript; charset=utf-8').send(installScript(registryHostOf(app.context))),
  );
}
