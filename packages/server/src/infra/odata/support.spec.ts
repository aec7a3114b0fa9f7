import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import { Lru } from './cache.js';
import { translateDbError } from './db-errors.js';

describe('Lru', () => {
  it('evicts the least recently used entry', () => {
    const c = new Lru<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });
});

describe('translateDbError', () => {
  const pg = (code: string, extra: object = {}) => Object.assign(new Error(`pg ${code}`), { code, ...extra });

  it('maps constraint violations to the dialect texts', () => {
    const unique = translateDbError(pg('23505'));
    expect(unique).toBeInstanceOf(ConflictError);
    expect((unique as Error).message).toBe('Unique key constraint violated');
    const fk = translateDbError(pg('23503'));
    expect(fk).toBeInstanceOf(ConflictError);
    expect((fk as Error).message).toBe('Foreign key constraint violated');
  });

  it('maps bad values and not-null to 400', () => {
    for (const code of ['22P02', '22003', '22007', '22008', '22012', '22021', '23502', '23514', '42883', '54001']) {
      expect(translateDbError(pg(code, { column: 'x', table: 't' })), code).toBeInstanceOf(BadRequestError);
    }
  });

  it('leaves other errors and HttpErrors alone', () => {
    const other = pg('57P01');
    expect(translateDbError(other)).toBe(other);
    const http = new NotFoundError();
    expect(translateDbError(http)).toBe(http);
  });
});
