import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';

/**
 * The one error handler. Typed errors become their status with the message as a JSON
 * string body (the balena dialect's error shape); 5xx text is hidden from the client and
 * logged with the request id.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply.code(error.statusCode).type('application/json').send(JSON.stringify(error.message));
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return reply.code(400).type('application/json').send(JSON.stringify(`Invalid request: ${fe.message}`));
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).type('application/json').send(JSON.stringify('Request body is larger than 1 MB'));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(fe.statusCode).type('application/json').send(JSON.stringify(fe.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).type('application/json').send(JSON.stringify(`Internal Server Error (request ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).type('application/json').send(JSON.stringify(`Not found: ${request.method} ${request.url.split('?')[0]}`));
  });
}
