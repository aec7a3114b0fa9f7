import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../errors.js';
import { compile, where } from './spec-helpers.js';

const w = (filter: string, resource = 'application') => where(`/${resource}?$filter=${filter}`);
const params = (filter: string, resource = 'application') => compile(`/${resource}?$filter=${filter}`).params;

describe('$filter comparison operators', () => {
  it('casts each literal to the type of the field it is compared with', () => {
    expect(w("app_name eq 'x'")).toBe(`(t0."app_name" = $1::text)`);
    expect(w('id eq 5')).toBe(`(t0."id" = $1::integer)`);
    expect(w('is_public eq true')).toBe(`(t0."is_public" = $1::boolean)`);
    expect(params("app_name eq 'x'")).toEqual(['x']);
  });

  it('maps gt ge lt le to SQL', () => {
    expect(w('id gt 1')).toBe(`(t0."id" > $1::integer)`);
    expect(w('id ge 1')).toBe(`(t0."id" >= $1::integer)`);
    expect(w('id lt 1')).toBe(`(t0."id" < $1::integer)`);
    expect(w('id le 1')).toBe(`(t0."id" <= $1::integer)`);
  });

  it('compares nulls as values: ne is IS DISTINCT FROM, eq null is IS NULL', () => {
    expect(w('application_type ne 1')).toBe(`(t0."application_type" IS DISTINCT FROM $1::integer)`);
    expect(w('application_type eq null')).toBe(`(t0."application_type" IS NULL)`);
    expect(w('application_type ne null')).toBe(`(t0."application_type" IS NOT NULL)`);
    expect(w('id eq organization')).toBe(`(t0."id" IS NOT DISTINCT FROM t0."organization")`);
  });

  it('uses integer, bigint or numeric casts by the literal value', () => {
    expect(w('id eq 99999999999')).toBe(`(t0."id" = $1::bigint)`);
    expect(w('id eq 1.5')).toBe(`(t0."id" = $1::numeric)`);
  });

  it('reads a quoted text compared with a date as a timestamp', () => {
    expect(w("created_at gt '2026-01-01'")).toBe(`(t0."created_at" > $1::timestamptz)`);
    expect(w("created_at gt datetime'2026-01-01T00:00:00.000Z'")).toBe(`(t0."created_at" > $1::timestamptz)`);
    expect(params("created_at gt datetime'2026-01-01T00:00:00.000Z'")).toEqual(['2026-01-01T00:00:00.000Z']);
  });

  it('rejects a literal of the wrong type with a 400 before any SQL runs', () => {
    expect(() => w('app_name eq 5')).toThrow(/Type mismatch in \$filter/);
    expect(() => w("id eq 'x'")).toThrow(BadRequestError);
    expect(() => w('is_public eq 1')).toThrow(BadRequestError);
    expect(() => w('app_name eq is_public')).toThrow(/cannot compare text with boolean/);
    expect(() => w("contract eq 'x'", 'device_type')).toThrow(/JSON/);
  });

  it('requires the whole $filter to be boolean', () => {
    expect(() => w('app_name')).toThrow(/must be boolean/);
    expect(w('is_public')).toBe(`t0."is_public"`);
  });
});

describe('$filter logic, arithmetic and in', () => {
  it('joins and/or and negates with OData null semantics', () => {
    expect(w('id eq 1 and id eq 2 and id eq 3')).toBe(`((t0."id" = $1::integer) AND (t0."id" = $2::integer) AND (t0."id" = $3::integer))`);
    expect(w('id eq 1 or id eq 2')).toBe(`((t0."id" = $1::integer) OR (t0."id" = $2::integer))`);
    expect(w("not(app_name eq 'x')")).toBe(`(NOT coalesce((t0."app_name" = $1::text), false))`);
  });

  it('compiles add sub mul div mod', () => {
    expect(w('id add 1 eq 2')).toBe(`((t0."id" + $1::integer) = $2::integer)`);
    expect(w('id sub 1 eq 2')).toContain(`(t0."id" - $1::integer)`);
    expect(w('id mul 2 eq 2')).toContain(`(t0."id" * $1::integer)`);
    expect(w('id div 2 eq 2')).toContain(`(t0."id" / $1::integer)`);
    expect(w('id mod 2 eq 0')).toContain(`(t0."id" % $1::integer)`);
    expect(() => w("app_name add 1 eq 2")).toThrow(BadRequestError);
  });

  it('compiles in (…) as one array parameter, whatever the length', () => {
    expect(w('id in (1, 2, 3)')).toBe(`(t0."id" = ANY($1::integer[]))`);
    expect(params('id in (1, 2, 3)')).toEqual([[1, 2, 3]]);
    expect(w('id in (1)')).toBe(w('id in (1, 2, 3, 4, 5)'));
    expect(w("app_name in ('a', null)")).toBe(`(t0."app_name" = ANY($1::text[]))`);
    expect(params("app_name in ('a', null)")).toEqual([['a', null]]);
    expect(w('id in (1, 99999999999, 2.5)')).toBe(`(t0."id" = ANY($1::numeric[]))`);
    expect(w("created_at in ('2026-01-01', datetime'2026-01-02T00:00:00Z')")).toBe(`(t0."created_at" = ANY($1::timestamptz[]))`);
    expect(() => w("id in ('a')")).toThrow(BadRequestError);
    expect(() => w("app_name in ('a', 1)")).toThrow(BadRequestError);
  });

  it('adds durations to dates', () => {
    expect(w("created_at gt now() sub duration'P1DT2H'")).toBe(`(t0."created_at" > (now() - $1::interval))`);
    expect(params("created_at gt now() sub duration'P1DT2H'")).toEqual(['1 days 2 hours']);
  });
});

describe('$filter functions', () => {
  const cases: [string, string][] = [
    ["contains(app_name,'x')", `(strpos(t0."app_name", $1::text) > 0)`],
    ["startswith(app_name,'x')", `starts_with(t0."app_name", $1::text)`],
    ["endswith(app_name,'x')", `(right(t0."app_name", char_length($1::text)) = $1::text)`],
    ['length(app_name) eq 3', `(char_length(t0."app_name") = $1::integer)`],
    ["indexof(app_name,'x') eq 0", `((strpos(t0."app_name", $1::text) - 1) = $2::integer)`],
    ["substring(app_name,1) eq 'x'", `(substr(t0."app_name", ($1::integer) + 1) = $2::text)`],
    ["substring(app_name,1,2) eq 'x'", `(substr(t0."app_name", ($1::integer) + 1, $2::integer) = $3::text)`],
    ["tolower(app_name) eq 'x'", `(lower(t0."app_name") = $1::text)`],
    ["toupper(app_name) eq 'x'", `(upper(t0."app_name") = $1::text)`],
    ["trim(app_name) eq 'x'", `(btrim(t0."app_name") = $1::text)`],
    ["concat(app_name,'x') eq 'y'", `((t0."app_name" || $1::text) = $2::text)`],
    ['year(created_at) eq 2026', `(EXTRACT(YEAR FROM (t0."created_at" AT TIME ZONE 'UTC'))::integer = $1::integer)`],
    ['month(created_at) eq 1', `(EXTRACT(MONTH FROM (t0."created_at" AT TIME ZONE 'UTC'))::integer = $1::integer)`],
    ['day(created_at) eq 1', `(EXTRACT(DAY FROM (t0."created_at" AT TIME ZONE 'UTC'))::integer = $1::integer)`],
    ['hour(created_at) eq 1', `(EXTRACT(HOUR FROM (t0."created_at" AT TIME ZONE 'UTC'))::integer = $1::integer)`],
    ['minute(created_at) eq 1', `(EXTRACT(MINUTE FROM (t0."created_at" AT TIME ZONE 'UTC'))::integer = $1::integer)`],
    ['second(created_at) eq 1', `(floor(EXTRACT(SECOND FROM (t0."created_at" AT TIME ZONE 'UTC')))::integer = $1::integer)`],
    ["date(created_at) eq date'2026-01-01'", `((t0."created_at" AT TIME ZONE 'UTC')::date = $1::date)`],
    ["time(created_at) eq '10:00:00'", `((t0."created_at" AT TIME ZONE 'UTC')::time = $1::time)`],
    ['created_at lt now()', `(t0."created_at" < now())`],
    ['round(id) eq 1', `(round(t0."id") = $1::integer)`],
    ['floor(id) eq 1', `(floor(t0."id") = $1::integer)`],
    ['ceiling(id) eq 1', `(ceil(t0."id") = $1::integer)`],
  ];
  for (const [filter, sql] of cases) {
    it(filter, () => expect(w(filter)).toBe(sql));
  }

  it('checks argument types and rejects unknown functions', () => {
    expect(() => w('contains(id,1)')).toThrow(/contains\(\) expects text/);
    expect(() => w('year(app_name) eq 1')).toThrow(/year\(\) expects a date/);
    expect(() => w("isof(app_name,'Edm.String')")).toThrow(/Unsupported function in \$filter: isof/);
  });
});

describe('$filter navigations', () => {
  it('compiles any over a to-many navigation as EXISTS on the reverse column', () => {
    expect(w("device_type_alias/any(dta:dta/is_referenced_by__alias eq 'rpi')", 'device_type')).toBe(
      `EXISTS (SELECT 1 FROM "device_type_alias" AS t1 WHERE t1."device_type" = t0."id" AND (t1."is_referenced_by__alias" = $1::text))`,
    );
  });

  it('compiles any over a to-one navigation as EXISTS on the foreign key', () => {
    expect(w("organization/any(o:o/handle eq 'x')")).toBe(
      `EXISTS (SELECT 1 FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND (t1."handle" = $1::text))`,
    );
  });

  it('compiles all as NOT EXISTS of a row failing the condition', () => {
    expect(w("device_type_alias/all(d:startswith(d/is_referenced_by__alias,'r'))", 'device_type')).toBe(
      `(NOT EXISTS (SELECT 1 FROM "device_type_alias" AS t1 WHERE t1."device_type" = t0."id" AND NOT coalesce(starts_with(t1."is_referenced_by__alias", $1::text), false)))`,
    );
  });

  it('nests lambdas, with outer variables and $it visible inside', () => {
    const sql = w("organization/any(o:o/application/any(a:a/app_name eq o/name and a/id ne id))");
    expect(sql).toBe(
      `EXISTS (SELECT 1 FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND EXISTS (SELECT 1 FROM "application" AS t2 WHERE t2."organization" = t1."id" AND ((t2."app_name" IS NOT DISTINCT FROM t1."name") AND (t2."id" IS DISTINCT FROM t0."id"))))`,
    );
  });

  it('accepts literal-only lambda bodies', () => {
    expect(w('device_type_alias/any(d:1 eq 1)', 'device_type')).toBe(
      `EXISTS (SELECT 1 FROM "device_type_alias" AS t1 WHERE t1."device_type" = t0."id" AND ($1::integer = $2::integer))`,
    );
  });

  it('follows paths through to-one navigations with a scalar subquery', () => {
    expect(w("organization/handle eq 'x'")).toBe(`((SELECT t1."handle" FROM "organization" AS t1 WHERE t1."id" = t0."organization") = $1::text)`);
    expect(w("is_of__cpu_architecture/slug eq 'x'", 'device_type')).toContain(`FROM "cpu_architecture" AS t1 WHERE t1."id" = t0."is_of__cpu_architecture"`);
  });

  it('refuses a path through a to-many navigation', () => {
    expect(() => w("application/app_name eq 'x'", 'organization')).toThrow(/'application' is a collection/);
  });

  it('counts a navigation with its own $filter relative to the counted resource', () => {
    expect(w('application/$count($filter=is_public eq true) gt 0', 'organization')).toBe(
      `((SELECT count(*) FROM "application" AS t1 WHERE t1."organization" = t0."id" AND (t1."is_public" = $1::boolean)) > $2::integer)`,
    );
    expect(w('application/$count eq 0', 'organization')).toBe(`((SELECT count(*) FROM "application" AS t1 WHERE t1."organization" = t0."id") = $1::integer)`);
  });

  it('rejects unknown fields and navigations with the field message', () => {
    expect(() => w("nope eq 'x'")).toThrow("Unknown field 'nope' on resource 'application'");
    expect(() => w('nope/any(x:x/id eq 1)')).toThrow("Unknown field 'nope' on resource 'application'");
    expect(() => w("organization/nope eq 'x'")).toThrow("Unknown field 'nope' on resource 'organization'");
    expect(() => w('app_name/any(x:x/id eq 1)')).toThrow(/is not a navigation/);
  });

  it('treats secret fields exactly like unknown ones', () => {
    expect(() => w("password eq 'x'", 'user')).toThrow("Unknown field 'password' on resource 'user'");
    expect(() => w("organization_membership/any(m:m/user/any(u:u/password eq 'x'))", 'organization')).toThrow(
      "Unknown field 'password' on resource 'user'",
    );
  });
});

describe('$filter parameters', () => {
  it('binds @__ACTOR_ID to the caller as one parameter appended last', () => {
    const c = compile('/user?$filter=actor eq @__ACTOR_ID and id gt 0');
    expect(c.sql).toContain(`(t0."actor" = $2::integer)`);
    expect(c.actorIndex).toBe(1);
  });

  it('resolves parameter aliases from the query', () => {
    expect(w("app_name eq @n&@n='x'")).toBe(`(t0."app_name" = $1::text)`);
    expect(() => w('app_name eq @missing')).toThrow(/Unknown parameter alias/);
  });
});

describe('$filter operator chains', () => {
  it('associates a chain of one operator to the left', () => {
    expect(w('id add 1 add 2 eq 4')).toBe(`(((t0."id" + $1::integer) + $2::integer) = $3::integer)`);
    expect(() => w('id eq 1 eq 2')).toThrow(/Type mismatch in \$filter: expected boolean, got number/);
  });
});
