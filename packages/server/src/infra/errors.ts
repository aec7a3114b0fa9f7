/**
 * Typed errors thrown by services and the data layer; one handler (infra/http/errors.ts)
 * turns them into responses. `body` is what the client sees: the balena dialect sends
 * most errors as a bare JSON string (e.g. "Unique key constraint violated").
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(message = 'Bad Request') {
    super(400, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not Found') {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message = 'Unique key constraint violated') {
    super(409, message);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body is larger than 1 MB') {
    super(413, message);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, message = 'Too Many Requests. Try again later') {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
/** 502: a server we called for the caller (a code host) failed us, not the caller. */
export class BadGatewayError extends HttpError {
  constructor(message = 'Bad Gateway') {
    super(502, message);
  }
}
/** 504: a server we called for the caller gave no answer in time. */
export class GatewayTimeoutError extends HttpError {
  constructor(message = 'Gateway Timeout') {
    super(504, message);
  }
}
