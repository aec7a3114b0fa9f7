import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../infra/app/context.js';
import { NotFoundError } from '../../infra/errors.js';

/** What identity-provider writes and the eligible-organizations route answer while SAML is off. */
export const SAML_OFF_MESSAGE = 'Single sign-on (SAML) is not enabled on this server';

/**
 * Whether this server supports SAML single sign-on (FLOTILLA_SAML, default on). The identity
 * provider rules, the eligible-organizations route and the SAML sign-in routes all ask this.
 */
export function samlEnabled(app: FastifyInstance | AppContext): boolean {
  const config = 'context' in app ? app.context.config : app.config;
  return config.samlEnabled !== false;
}

/** 404 with SAML_OFF_MESSAGE while SAML is off. */
export function requireSamlEnabled(app: FastifyInstance | AppContext): void {
  if (!samlEnabled(app)) throw new NotFoundError(SAML_OFF_MESSAGE);
}
