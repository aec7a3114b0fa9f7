import type { AppContext } from '../../infra/app/context.js';

/**
 * The registry host image locations name (`<host>/v2/<hex>`) and tokens are issued for:
 * the configured one (main.ts: FLOTILLA_REGISTRY_URL's host when external, else
 * FLOTILLA_REGISTRY_HOST), else the host:port of the server's public URL (the embedded
 * registry is this server). Request-less hooks read it from the app context, never from a
 * request's Host header.
 */
export function registryHostOf(context: Pick<AppContext, 'config' | 'mailer'>): string {
  const external = context.config.registry?.externalUrl;
  if (external !== undefined) return new URL(external).host;
  return context.config.registryHost ?? new URL(context.mailer.publicUrl).host;
}
