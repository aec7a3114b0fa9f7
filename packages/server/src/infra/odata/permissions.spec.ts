import { describe, expect, it } from 'vitest';
import { ROLES } from '@flotilla/model';
import { UnauthorizedError } from '../errors.js';
import { conditionAt, permissionCondition, permissionsKey, rootCondition } from './permissions.js';
import { compileAffectedIds } from './query.js';
import { compile } from './spec-helpers.js';
import { NEW_ROW_MARK, paramsFor } from './sql.js';
import { parseUrl } from './url.js';

// A small permission set whose conditions are easy to recognise in SQL.
const PERMS = [
  "resin.application.read?app_name eq 'visible'",
  "resin.organization.read?handle eq 'mine'",
  'resin.cpu_architecture.read',
  "resin.application.update?app_name eq 'editable'",
];

describe('permissions compiled into the statement', () => {
  it('ANDs the read condition into the root resource', () => {
    const { sql } = compile('/application?$select=id', PERMS);
    expect(sql).toContain(`FROM "application" AS t0 WHERE (t0."app_name" = 'visible'::text)`);
  });

  it('ANDs the navigated resource read condition into every $expand, at each level', () => {
    const { sql } = compile('/application?$select=id&$expand=organization($select=id;$expand=application($select=id))', PERMS);
    expect(sql).toContain(`FROM "application" AS t0 WHERE (t0."app_name" = 'visible'::text)`);
    expect(sql).toContain(`FROM "organization" AS t3 WHERE t3."id" = t2."organization" AND (t3."handle" = 'mine'::text)`);
    expect(sql).toContain(`FROM "application" AS t5 WHERE t5."organization" = t3."id" AND (t5."app_name" = 'visible'::text)`);
  });

  it('ANDs it into navigations named in $filter: lambdas, paths and $count', () => {
    const lambda = compile("/application?$select=id&$filter=organization/any(o:o/name eq 'x')", PERMS).sql;
    expect(lambda).toContain(`EXISTS (SELECT 1 FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND (t1."handle" = 'mine'::text) AND (t1."name" = $1::text))`);
    const path = compile("/application?$select=id&$filter=organization/name eq 'x'", PERMS).sql;
    expect(path).toContain(`(SELECT t1."name" FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND (t1."handle" = 'mine'::text))`);
    const count = compile('/organization?$select=id&$filter=application/$count gt 0', PERMS).sql;
    expect(count).toContain(`(SELECT count(*) FROM "application" AS t1 WHERE t1."organization" = t0."id" AND (t1."app_name" = 'visible'::text))`);
  });

  it('ANDs it into navigations named in $orderby', () => {
    const { sql } = compile('/application?$select=id&$orderby=organization/name asc', PERMS);
    expect(sql).toContain(`ORDER BY (SELECT t1."name" FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND (t1."handle" = 'mine'::text)) ASC`);
  });

  it('makes a navigation the caller may not read FALSE (no rows), not an error', () => {
    const { sql } = compile("/application?$select=id&$expand=actor&$filter=actor/any(a:a/id eq 1)", PERMS);
    expect(sql).toContain(`FROM "actor" AS t1 WHERE t1."id" = t0."actor" AND FALSE AND`);
    expect(sql).toContain(`FROM "actor" AS t4 WHERE t4."id" = t3."actor" AND FALSE LIMIT 1000)`);
  });

  it('answers 401 for a root resource the caller may not read at all', () => {
    expect(() => compile('/user', ROLES.anonymous)).toThrow(UnauthorizedError);
    expect(() => compile('/user/$count', ROLES.anonymous)).toThrow('Unauthorized');
  });

  it('adds nothing for unconditional permissions', () => {
    expect(compile('/cpu_architecture?$select=id', PERMS).sql).toBe(
      `SELECT coalesce(json_agg(q.*), '[]'::json)::text AS d FROM (SELECT t0."id" AS "id" FROM "cpu_architecture" AS t0 LIMIT 1000) AS q`,
    );
  });

  it('trusts navigations inside permission texts (they are not re-checked)', () => {
    // device_type_alias is readable where its device type is public; that navigation
    // must not carry device_type's own read condition again.
    const { sql } = compile('/device_type_alias?$select=id', ROLES.anonymous);
    expect(sql.match(/is_private/g)).toHaveLength(1);
  });

  it('binds the actor id as a parameter: one statement serves every user of a role', () => {
    const c = compile('/user?$select=id', ROLES['default-user']);
    expect(c.sql).toContain(`(t0."actor" = $1::integer)`);
    expect(c.sql).not.toMatch(/= \d+::integer/);
    const stmt = { sql: c.sql, name: 'x', params: c.params, actorIndex: c.actorIndex };
    expect(paramsFor(stmt, 42)).toEqual([42]);
    expect(paramsFor(stmt, null)).toEqual([null]);
  });

  it('ORs several conditions of one action', () => {
    const c = permissionCondition(['resin.application.read?is_public eq true', "resin.application.read?app_name eq 'a'"], 'application', 'read');
    expect(conditionAt(c as string, 't0')).toBe(`((t0."is_public" = true::boolean) OR (t0."app_name" = 'a'::text))`);
  });

  it('uses the update condition for the rows a PATCH touches, read conditions for its filter navigations', () => {
    const s = compileAffectedIds(parseUrl("/application?$filter=organization/any(o:o/name eq 'x')"), PERMS, 'update');
    expect(s.sql).toContain(`WHERE (t0."app_name" = 'editable'::text) AND EXISTS (SELECT 1 FROM "organization" AS t1 WHERE t1."id" = t0."organization" AND (t1."handle" = 'mine'::text)`);
    expect(() => compileAffectedIds(parseUrl('/application'), PERMS, 'delete')).toThrow(UnauthorizedError);
  });

  it('inlines in (…) lists of permission texts as array literals', () => {
    expect(rootCondition(["resin.application.read?app_name in ('a', 'b''c')"], 'application', 'read', 't0')).toBe(`(t0."app_name" = ANY(ARRAY['a', 'b''c']::text[]))`);
  });

  it('escapes quotes in permission literals', () => {
    const c = rootCondition(["resin.application.read?app_name eq 'it''s'"], 'application', 'read', 't9');
    expect(c).toBe(`(t9."app_name" = 'it''s'::text)`);
  });
});

describe('permission caches', () => {
  it('keys a permission set by content, equal arrays sharing one key', () => {
    expect(permissionsKey([...PERMS])).toBe(permissionsKey([...PERMS]));
    expect(permissionsKey(PERMS)).not.toBe(permissionsKey(PERMS.slice(1)));
  });

  it('compiles a (permission set, resource, action) once', () => {
    const a = permissionCondition(PERMS, 'organization', 'read');
    expect(a).toBe(permissionCondition([...PERMS], 'organization', 'read'));
    expect(conditionAt(a as string, 't7')).toBe(`(t7."handle" = 'mine'::text)`);
    expect(permissionCondition(PERMS, 'organization', 'delete')).toBe(false);
    expect(permissionCondition(PERMS, 'cpu_architecture', 'read')).toBe(true);
  });
});

describe('create conditions', () => {
  it('skip the row being created in navigations back into its own resource', () => {
    const c = permissionCondition(ROLES['default-user'], 'organization_membership', 'create') as string;
    // The membership list of the organization is read without the new membership.
    const sql = conditionAt(c, 't0').replaceAll(NEW_ROW_MARK, '$new');
    expect(sql).toMatch(/FROM "organization_membership" AS t0_\d WHERE t0_\d\."is_member_of__organization" = t0_\d\."id" AND t0_\d\."id" <> \$new/);
    expect(permissionCondition(ROLES['default-user'], 'organization_membership', 'read') as string).not.toContain(NEW_ROW_MARK);
  });
});

describe('support-access grants (issue 19)', () => {
  const SUPPORT = [...ROLES['default-user'], ...ROLES.support_agent];

  it('compares the expiry with the database clock at run time: the compiled statement holds no time', () => {
    const condition = permissionCondition(SUPPORT, 'device', 'read');
    expect(typeof condition).toBe('string');
    expect(condition as string).toContain(`"is_accessible_by_support_until__date" > now()`);
    const first = compile('/device?$select=id', SUPPORT);
    expect(first.sql).toContain('now()');
    expect(first.sql).not.toMatch(/'\d{4}-\d\d-\d\d/);
    // The parameters are the request's and the caller's only: nothing that would go stale.
    expect([...first.params].filter((p) => p instanceof Date || (typeof p === 'string' && /^\d{4}-/.test(p)))).toEqual([]);
  });
});
