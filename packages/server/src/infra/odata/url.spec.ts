import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../errors.js';
import { parseUrl } from './url.js';

const binds = (url: string) => [...parseUrl(url).binds];

describe('parseUrl: wire encoding (dialect §2.1)', () => {
  it('reads a percent-encoded filter with a doubled quote as one text literal', () => {
    const p = parseUrl("/device?$filter=device_name%20eq%20%27it%27%27s%27");
    expect(p.options.$filter).toEqual(['eq', { name: 'device_name' }, { bind: 0 }]);
    expect(binds("/device?$filter=device_name%20eq%20%27it%27%27s%27")).toEqual([['Text', "it's"]]);
  });

  it('keeps raw quotes, doubled raw quotes and mixed encodings equivalent', () => {
    expect(binds("/device?$filter=device_name eq 'it''s'")).toEqual([['Text', "it's"]]);
    expect(binds("/device?$filter=device_name eq %27it'%27s'")).toEqual([['Text', "it's"]]);
  });

  it('decodes the content of a string once: %26, %25 and %2C inside strings are data', () => {
    expect(binds("/a?$filter=name eq 'a%26b%25c%2Cd'")).toEqual([['Text', 'a&b%c,d']]);
  });

  it('does not split options on a raw & inside a string', () => {
    const p = parseUrl("/a?$filter=name eq 'x&$top=1'&$top=5");
    expect([...p.binds]).toEqual([['Text', 'x&$top=1'], ['Integer', 5]]);
  });

  it('decodes structural characters that some clients percent-encode outside strings', () => {
    const p = parseUrl('/device_type?%24filter=device_type_alias%2Fany(dta%3Adta%2Fis_referenced_by__alias%20eq%20%27rpi%27)&%24select=id%2Cslug');
    expect(p.options.$select).toEqual({ properties: [{ name: 'id' }, { name: 'slug' }] });
    expect((p.options.$filter as { lambda: { identifier: string } }).lambda.identifier).toBe('dta');
  });

  it('turns datetime literals into Date Time binds', () => {
    const [b] = binds("/a?$filter=created_at gt datetime'2026-01-01T00:00:00.000Z'");
    expect(b).toEqual(['Date Time', Date.parse('2026-01-01T00:00:00.000Z')]);
  });

  it('accepts the datetime literal percent-encoded', () => {
    const [b] = binds("/a?$filter=created_at gt datetime%272026-01-01T00%3A00%3A00.000Z%27");
    expect(b).toEqual(['Date Time', Date.parse('2026-01-01T00:00:00.000Z')]);
  });

  it('parses keys: numeric, alternate and composite', () => {
    expect(parseUrl('/application(5)').tree.key).toEqual({ bind: 0 });
    expect(parseUrl("/organization(handle='x')").tree.key).toEqual({ handle: { bind: 0 } });
    expect(parseUrl("/organization_membership(user=1,is_member_of__organization=2)").tree.key).toEqual({
      user: { bind: 0 },
      is_member_of__organization: { bind: 1 },
    });
  });

  it('drops non-OData query parameters such as apikey', () => {
    const p = parseUrl('/application?apikey=abc/def+ghi==&$top=1');
    expect(p.options).toEqual({ $top: { bind: 0 } });
  });

  it('marks /$count', () => {
    expect(parseUrl('/application/$count?$filter=id eq 1').tree.count).toBe(true);
  });

  it('rejects malformed URLs with a 400 that says where', () => {
    for (const url of ['/a?$filter=name eq', '/a?$filter=(', "/a?$filter=name eq 'x", '/a?$top=-1', '/a?$bogus=1', "/a?$filter=name eq 'a%'"]) {
      let error: unknown;
      try {
        parseUrl(url);
      } catch (err) {
        error = err;
      }
      expect(error, url).toBeInstanceOf(BadRequestError);
      expect((error as Error).message, url).toMatch(/^Malformed OData URL: /);
    }
  });

  it('rejects resource navigation paths and the service root', () => {
    expect(() => parseUrl('/application(1)/organization')).toThrow(BadRequestError);
    expect(() => parseUrl('/$metadata')).toThrow(BadRequestError);
  });
});
