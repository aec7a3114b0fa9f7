import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { translateDbError, type ConstraintMessages } from '../odata/db-errors.js';

/** The dialect's error shape: the message as a JSON string. */
function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify(message));
}

/**
 * Errors the request itself caused, wherever they were thrown: a database error of a bad
 * value (hand-written SQL as well as the data layer: invalid byte sequence 22021, numeric
 * out of range 22003, invalid text 22P02, unique/foreign key…), a malformed percent-escape
 * or lone surrogate (URIError), unparsable JSON (SyntaxError from a body parser).
 */
export function clientErrorOf(error: unknown, messages?: ConstraintMessages): HttpError | undefined {
  if (error instanceof HttpError) return error;
  const translated = translateDbError(error, messages);
  if (translated instanceof HttpError) return translated;
  if (error instanceof URIError) return new HttpError(400, `Invalid request: ${error.message}`);
  const fe = error as FastifyError;
  if (fe?.validation) return new HttpError(400, `Invalid request: ${fe.message}`);
  if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new HttpError(413, 'Request body is larger than 1 MB');
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) return new HttpError(fe.statusCode, fe.message);
  if (error instanceof SyntaxError) return new HttpError(400, `Invalid request: ${error.message}`);
  return undefined;
}

/** Texts of the HTTP parser's own refusals (before Fastify sees a request). */
const CLIENT_ERROR_TEXT: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  HPE_URI_TOO_LONG: [414, 'Request URI too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};
const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

/**
 * The one error handler. Typed errors become their status with the message as a JSON
 * string body (the balena dialect's error shape); errors the input caused are 4xx in the
 * same shape; 5xx text is hidden from the client and logged with the request id. Fastify's
 * own refusals (bad URL, HTTP parser errors such as 431) use the same shape.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    // The app's rules may word a constraint violation themselves (hand-written SQL too).
    const client = clientErrorOf(error, request.server.context?.rules);
    if (client) {
      reply.headers(client.headers);
      return sendError(reply, client.statusCode, client.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, `Internal Server Error (request ${request.id})`);
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, 404, `Not found: ${request.method} ${request.url.split('?')[0]}`);
  });
}

/**
 * An API with an error shape of its own (the registry's `/v2/`: `{"errors":[…]}`) claims its
 * path prefix, so errors raised before any route runs (Fastify's framework errors: a URL it
 * cannot decode) answer in its shape too. One table per app (`app.errorFormats`).
 */
export type ErrorFormat = (status: number, message: string) => string;

declare module 'fastify' {
  interface FastifyInstance {
    errorFormats: Map<string, ErrorFormat>;
  }
}

export function installErrorFormats(app: FastifyInstance): void {
  app.decorate('errorFormats', new Map<string, ErrorFormat>());
}

function errorFormatOf(request: FastifyRequest): ErrorFormat | undefined {
  const path = request.url.split('?')[0] ?? '';
  for (const [prefix, format] of request.server.errorFormats ?? []) {
    if (path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) return format;
  }
  return undefined;
}

/** Fastify's `frameworkErrors`: a URL it cannot decode and the like, in the dialect's shape (or the path's own). */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const client = clientErrorOf(error) ?? new HttpError(400, error.message);
  const format = errorFormatOf(request);
  if (format) {
    reply.code(client.statusCode).type('application/json').send(format(client.statusCode, client.message));
    return;
  }
  sendError(reply, client.statusCode, client.message);
}

/** Fastify's `clientErrorHandler`: the HTTP parser's refusals (431, 414, 400) in the dialect's shape. */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy(error);
    return;
  }
  const [status, text] = CLIENT_ERROR_TEXT[error.code ?? ''] ?? [400, 'Bad Request'];
  const body = JSON.stringify(text);
  const reason = REASONS[status] ?? 'Bad Request';
  // The answer to a HEAD has no body (RFC 9110 §9.3.2): one sent anyway is read by the client
  // as the start of a next response (found by the fuzzer). `rawPacket` is the read the parser
  // refused: the refused request's line is the last request line in it (earlier requests on a
  // keep-alive connection may come first); a head longer than one read may have left its line
  // in an earlier read, and then the method is unknown and the status line alone says why.
  // An invalid method is never HEAD (the parser knows HEAD).
  const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const method = error.code === 'HPE_INVALID_METHOD' ? 'invalid' : [...packet.matchAll(/(?:^|\n)([A-Z]{1,7}) [^\s:]/g)].at(-1)?.[1];
  const withBody = method !== undefined && method !== 'HEAD' ? body : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `X-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(withBody)}\r\n\r\n${withBody}`,
  );
}
