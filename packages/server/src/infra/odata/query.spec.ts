import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../errors.js';
import { compileAffectedIds, compileEntityById, compileGet } from './query.js';
import { compile } from './spec-helpers.js';
import { parseUrl } from './url.js';

const sql = (url: string) => compile(url).sql;

describe('$select', () => {
  it('selects every visible field when absent, never secret ones', () => {
    const s = sql('/user');
    expect(s).toContain(`t0."username" AS "username"`);
    expect(s).not.toContain('"password"');
    expect(s).not.toContain('tokens_valid_after');
    expect(sql('/user?$select=*')).toBe(s);
  });

  it('deduplicates repeated fields (clients send id,id,…)', () => {
    expect(sql('/application?$select=id,id,app_name')).toBe(
      `SELECT coalesce(json_agg(q.*), '[]'::json)::text AS d FROM (SELECT t0."id" AS "id", t0."app_name" AS "app_name" FROM "application" AS t0 LIMIT 1000) AS q`,
    );
  });

  it('shows foreign keys as {"__id":N} or null and timestamps as ISO text', () => {
    expect(sql('/application?$select=organization,created_at')).toContain(
      `CASE WHEN t0."organization" IS NULL THEN NULL ELSE json_build_object('__id', t0."organization") END AS "organization", to_char(t0."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at"`,
    );
  });

  it('rejects unknown and secret fields with the same message, and paths', () => {
    expect(() => sql('/user?$select=id,nope')).toThrow("Unknown field 'nope' on resource 'user'");
    expect(() => sql('/user?$select=id,password')).toThrow("Unknown field 'password' on resource 'user'");
    expect(() => sql('/application?$select=organization/name')).toThrow(BadRequestError);
    expect(() => sql('/organization?$select=application')).toThrow("Unknown field 'application' on resource 'organization'");
  });
});

describe('computed fields', () => {
  const target = `coalesce(t0."is_pinned_on__release", (SELECT "__app"."should_be_running__release" FROM "application" AS "__app" WHERE "__app"."id" = t0."belongs_to__application"))`;

  it('reads a computed field as its expression over the row, in $select, $filter and $orderby', () => {
    const s = sql('/device?$select=should_be_running__release&$filter=should_be_running__release eq 5&$orderby=should_be_running__release asc');
    expect(s).toContain(`CASE WHEN (${target}) IS NULL THEN NULL ELSE json_build_object('__id', (${target})) END AS "should_be_running__release"`);
    expect(s).toContain(`(${target}) = `);
    expect(s).toContain(`ORDER BY (${target}) ASC`);
    expect(s).not.toContain('t0."should_be_running__release"');
  });

  it('expands a computed to-one navigation laterally, joined on the expression', () => {
    const s = sql('/device?$select=id&$expand=should_be_running__release($select=commit)');
    expect(s).not.toContain('WITH page');
    expect(s).toContain(`."id" = (${target})`);
  });
});

describe('$expand', () => {
  it('expands a top-level to-one navigation once per distinct key, as a one-element array', () => {
    expect(sql('/application?$select=id&$expand=organization($select=handle)')).toBe(
      // The per-key set is a MATERIALIZED CTE, built once whatever the plan (the fuzzer's
      // 4.6 s `$skip` query re-ran it per page row: odata-expand-plan.api.test.ts).
      `SELECT coalesce(json_agg(q.*), '[]'::json)::text AS d FROM (WITH page AS MATERIALIZED (SELECT t0.* FROM "application" AS t0 LIMIT 1000)` +
        `, t1_keys AS MATERIALIZED (SELECT t2."organization" AS k, (SELECT coalesce(json_agg(t4.*), '[]'::json) AS j FROM (SELECT t3."handle" AS "handle" FROM "organization" AS t3 WHERE t3."id" = t2."organization" LIMIT 1000) AS t4) AS j` +
        ` FROM (SELECT DISTINCT t0."organization" FROM page AS t0) AS t2)` +
        ` SELECT t0."id" AS "id", coalesce(t1.j, '[]'::json) AS "organization" FROM page AS t0 LEFT JOIN t1_keys AS t1 ON t1.k = t0."organization") AS q`,
    );
  });

  it('expands nested levels with a lateral join on the page', () => {
    expect(sql('/organization?$select=id&$expand=organization_membership($select=id;$expand=user($select=username))')).toBe(
      `SELECT coalesce(json_agg(q.*), '[]'::json)::text AS d FROM (SELECT t0."id" AS "id", t1.j AS "organization_membership" FROM (SELECT t0.* FROM "organization" AS t0 LIMIT 1000)` +
        ` AS t0 LEFT JOIN LATERAL (SELECT coalesce(json_agg(t6.*), '[]'::json) AS j FROM (SELECT t2."id" AS "id", t3.j AS "user" FROM (SELECT t2.* FROM "organization_membership" AS t2 WHERE t2."is_member_of__organization" = t0."id" LIMIT 1000) AS t2` +
        ` LEFT JOIN LATERAL (SELECT coalesce(json_agg(t5.*), '[]'::json) AS j FROM (SELECT t4."username" AS "username" FROM "user" AS t4 WHERE t4."id" = t2."user" LIMIT 1000) AS t5) AS t3 ON true) AS t6) AS t1 ON true) AS q`,
    );
  });

  it('expands a to-many navigation on the reverse column with nested $filter, $orderby, $top, $skip', () => {
    const s = sql("/organization?$select=id&$expand=application($select=id;$filter=is_public eq true;$orderby=app_name desc;$top=2;$skip=1)");
    expect(s).toContain(
      `(SELECT coalesce(json_agg(t3.*), '[]'::json) AS j FROM (SELECT t2."id" AS "id" FROM "application" AS t2 WHERE t2."organization" = t0."id" AND (t2."is_public" = $1::boolean) ORDER BY t2."app_name" DESC LIMIT $2::bigint OFFSET $3::bigint) AS t3)`,
    );
    expect(compile("/organization?$expand=application($top=2;$skip=1)").params).toEqual([2, 1]);
  });

  it('replaces an expanded foreign key in $select by its array', () => {
    const s = sql('/application?$select=id,organization&$expand=organization');
    expect(s).not.toContain(`json_build_object('__id', t0."organization")`);
    expect(s).toContain(`coalesce(t1.j, '[]'::json) AS "organization"`);
  });

  it('compiles nav/$count with a $filter as an integer', () => {
    expect(sql("/organization?$select=id&$expand=application/$count($filter=app_name eq 'x')")).toContain(
      `LEFT JOIN LATERAL (SELECT count(*)::integer AS j FROM "application" AS t2 WHERE t2."organization" = t0."id" AND (t2."app_name" = $1::text)) AS t1 ON true`,
    );
  });

  it('rejects unknown navigations, plain fields, secret fields, paths and duplicates', () => {
    expect(() => sql('/application?$expand=nope')).toThrow("Unknown field 'nope' on resource 'application'");
    expect(() => sql('/application?$expand=app_name')).toThrow(/not a navigation/);
    expect(() => sql('/user?$expand=password')).toThrow("Unknown field 'password' on resource 'user'");
    expect(() => sql('/application?$expand=organization/application')).toThrow(BadRequestError);
    expect(() => sql('/application?$expand=organization,organization')).toThrow(/expanded twice/);
    expect(() => sql("/application?$expand=organization($filter=nope eq 1)")).toThrow("Unknown field 'nope' on resource 'organization'");
  });
});

describe('$orderby, $top, $skip', () => {
  it('orders by fields in the given directions', () => {
    expect(sql('/application?$select=id&$orderby=app_name asc,id desc')).toContain(`ORDER BY t0."app_name" ASC, t0."id" DESC`);
  });

  it('orders by a path through a to-one navigation and by nav/$count', () => {
    expect(sql('/application?$select=id&$orderby=organization/name asc')).toContain(
      `ORDER BY (SELECT t1."name" FROM "organization" AS t1 WHERE t1."id" = t0."organization") ASC`,
    );
    expect(sql('/organization?$select=id&$orderby=application/$count desc')).toContain(
      `ORDER BY (SELECT count(*) FROM "application" AS t1 WHERE t1."organization" = t0."id") DESC`,
    );
  });

  it('pages every level: 1,000 rows without $top, at most 10,000 with it', () => {
    expect(sql('/organization?$select=id&$expand=application($select=id)')).toMatch(/FROM "organization" AS t0 LIMIT 1000\).*WHERE t2."organization" = t0."id" LIMIT 1000\)/);
    expect(sql('/application?$select=id&$top=10000')).toContain('LIMIT $1::bigint');
    expect(() => sql('/application?$select=id&$top=10001')).toThrow('$top may be at most 10000; page through larger collections with $skip');
    expect(() => sql('/organization?$expand=application($top=10001)')).toThrow(BadRequestError);
    // Counting is not paged.
    expect(sql('/application/$count')).not.toContain('LIMIT');
  });

  it('measures the JSON in the statement and leaves out a text over 32 MB', () => {
    expect(compileGet(parseUrl('/application?$select=id'), 'root').sql).toMatch(
      /^SELECT CASE WHEN octet_length\(r\.d\) <= 33554432 THEN r\.d END AS d, octet_length\(r\.d\) AS n FROM \(SELECT coalesce\(json_agg\(q\.\*\), '\[\]'::json\)::text AS d FROM .* AS q\) AS r$/,
    );
  });

  it('passes $top and $skip as parameters', () => {
    const c = compile('/application?$select=id&$top=5&$skip=10');
    expect(c.sql).toContain('LIMIT $1::bigint OFFSET $2::bigint');
    expect(c.params).toEqual([5, 10]);
  });

  it('keeps the page (order and limit) in a numbered CTE when expanding a to-one navigation', () => {
    const s = sql('/application?$select=id&$expand=organization&$orderby=id desc&$top=3');
    expect(s).toContain(
      `WITH page AS MATERIALIZED (SELECT t0.*, row_number() OVER () AS "__n" FROM (SELECT t0.* FROM "application" AS t0 ORDER BY t0."id" DESC LIMIT $1::bigint) AS t0)`,
    );
    expect(s).toMatch(/ ORDER BY t0\."__n"\) AS q$/);
    // Without $orderby there is no order to keep.
    expect(sql('/application?$select=id&$expand=organization&$top=3')).not.toContain('__n');
  });

  it('keeps the page (order and limit) in a derived table when expanding a to-many navigation', () => {
    expect(sql('/organization?$select=id&$expand=application&$orderby=id desc&$top=3')).toContain(
      `FROM (SELECT t0.* FROM "organization" AS t0 ORDER BY t0."id" DESC LIMIT $1::bigint) AS t0 LEFT JOIN LATERAL`,
    );
  });

  it('refuses to order by JSON', () => {
    expect(() => sql('/device_type?$orderby=contract asc')).toThrow(/JSON/);
  });
});

describe('/$count and keys', () => {
  it('counts the filtered collection', () => {
    const c = compile('/application/$count?$filter=is_public eq true');
    expect(c.sql).toBe(`SELECT count(*)::integer AS d FROM "application" AS t0 WHERE (t0."is_public" = $1::boolean)`);
    expect(compile('/application/$count?$top=2').sql).toBe(`SELECT count(*)::integer AS d FROM (SELECT 1 FROM "application" AS t0 LIMIT $1::bigint) AS c`);
  });

  it('reads by id, alternate key and composite key', () => {
    expect(sql('/application(5)?$select=id')).toContain(`WHERE t0."id" = $1::integer`);
    expect(sql("/organization(handle='x')?$select=id")).toContain(`WHERE t0."handle" = $1::text`);
    expect(sql('/organization_membership(user=1,is_member_of__organization=2)?$select=id')).toContain(
      `WHERE t0."user" = $1::integer AND t0."is_member_of__organization" = $2::integer`,
    );
  });

  it('combines a key with $filter', () => {
    expect(sql('/application(5)?$select=id&$filter=is_public eq true')).toContain(`WHERE t0."id" = $1::integer AND (t0."is_public" = $2::boolean)`);
  });

  it('rejects keys that are not keys, and wrong key types', () => {
    expect(() => sql("/organization(name='x')")).toThrow("Unknown key (name) for resource 'organization'");
    expect(() => sql("/user(password='x')")).toThrow(/Unknown key/);
    expect(() => sql("/application('x')")).toThrow("Invalid value for key 'id' of resource 'application'");
  });

  it('answers 404 for unknown resources, including Object.prototype names', () => {
    expect(() => sql('/foo')).toThrow(NotFoundError);
    expect(() => sql('/foo')).toThrow('Unknown resource: foo');
    expect(() => sql('/constructor')).toThrow(NotFoundError);
  });
});

describe('write statements', () => {
  it('selects affected ids by key and $filter, locking them', () => {
    const s = compileAffectedIds(parseUrl("/application(3)?$filter=app_name eq 'x'"), 'root', 'update');
    expect(s.sql).toBe(
      `SELECT t0."id" AS id FROM "application" AS t0 WHERE t0."id" = $1::integer AND (t0."app_name" = $2::text) ORDER BY t0."id" FOR UPDATE OF t0`,
    );
  });

  it('re-reads an entity by id without secret fields', () => {
    const s = compileEntityById('user');
    expect(s.sql).toContain(`WHERE t0."id" = $1::integer`);
    expect(s.sql).not.toContain('"password"');
  });

  it('names each statement after its SQL, so shapes share a prepared statement', () => {
    const a = compileAffectedIds(parseUrl("/application?$filter=app_name eq 'x'"), 'root', 'delete');
    const b = compileAffectedIds(parseUrl("/application?$filter=app_name eq 'y'"), 'root', 'delete');
    const c = compileAffectedIds(parseUrl('/application?$filter=id eq 1'), 'root', 'delete');
    expect(a.name).toBe(b.name);
    expect(a.name).not.toBe(c.name);
    expect(a.name.length).toBeLessThan(64);
  });
});
