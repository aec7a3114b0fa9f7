import type { FastifyInstance } from 'fastify';
import { UnauthorizedError } from '../errors.js';
import '../http/actor.js';
import type { Authenticator } from './authenticate.js';

/** Resolves each request's caller into `request.actor` (callback style: a cached caller, a device's poll, costs no promise). */
export function installAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('authError', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const refused = (err: Error) => {
      // Routes that declare it answer a refused credential themselves.
      if (err instanceof UnauthorizedError && request.routeOptions.config?.handlesAuthError === true) {
        request.authError = err;
        done();
      } else done(err);
    };
    let actor: ReturnType<Authenticator['authenticate']>;
    try {
      actor = authenticator.authenticate(request);
    } catch (err) {
      refused(err as Error);
      return;
    }
    if (actor instanceof Promise) {
      actor.then(
        (a) => {
          request.actor = a;
          done();
        },
        refused,
      );
    } else {
      request.actor = actor;
      done();
    }
  });
}
