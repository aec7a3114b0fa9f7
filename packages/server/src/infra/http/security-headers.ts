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
 * Headers every response gets, API and pages alike (the pages add their Content-Security-
 * Policy in features/web): no MIME sniffing, no framing, no referrer to other origins; HSTS
 * when the public URL is https; `Cache-Control: no-store` on responses that carry a
 * credential (routes with `config.noStore`).
 */
export function installSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'same-origin');
    if (https) reply.header('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
    if (request.routeOptions.config?.noStore === true) {
      reply.header('Cache-Control', 'no-store');
      reply.header('Pragma', 'no-cache');
    }
    done(null, payload);
  });
}
