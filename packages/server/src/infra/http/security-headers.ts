import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The response carries a credential (a session token, an API key): never stored by caches. */
    noStore?: boolean;
  }
}

/** HSTS max-age: one year (the common preload minimum). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Headers every response gets, API and pages alike, through `@fastify/helmet`: no MIME
 * sniffing, no framing, no referrer to other origins; HSTS when the public URL is https.
 * Only those: helmet's other defaults (cross-origin isolation, Origin-Agent-Cluster, …) are
 * off, and so is its Content-Security-Policy, which each kind of page sets itself (the
 * dashboard's in features/web, the API docs', downloaded files' `sandbox`; docs/decisions.md,
 * issue 13). `Cache-Control: no-store` on responses that carry a credential (routes with
 * `config.noStore`) is ours.
 */
export async function installSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config?.noStore === true) {
      reply.header('Cache-Control', 'no-store');
      reply.header('Pragma', 'no-cache');
    }
    done(null, payload);
  });
}
