import { describe, expect, it } from 'vitest';
import { clientErrorOf } from './errors.js';

const pgError = (code: string, message = 'pg error') => Object.assign(new Error(message), { code });

describe('clientErrorOf', () => {
  it('turns database errors the input caused into 4xx, wherever the SQL was written', () => {
    expect(clientErrorOf(pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'))?.statusCode).toBe(400);
    expect(clientErrorOf(pgError('22003', 'integer out of range'))?.statusCode).toBe(400);
    expect(clientErrorOf(pgError('22P02', 'invalid input syntax for type integer'))?.statusCode).toBe(400);
    expect(clientErrorOf(pgError('23505'))?.statusCode).toBe(409);
  });

  it('turns URIError and JSON parse errors into 400', () => {
    let uriError: unknown;
    try {
      decodeURIComponent('%E0%A4%A');
    } catch (err) {
      uriError = err;
    }
    expect(clientErrorOf(uriError)?.statusCode).toBe(400);
    let parseError: unknown;
    try {
      JSON.parse('{');
    } catch (err) {
      parseError = err;
    }
    expect(clientErrorOf(parseError)?.statusCode).toBe(400);
  });

  it('leaves server faults alone (they stay 500)', () => {
    expect(clientErrorOf(pgError('08006', 'connection failure'))).toBeUndefined();
    expect(clientErrorOf(new TypeError('x is undefined'))).toBeUndefined();
  });
});
