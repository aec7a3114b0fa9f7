import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../errors.js';
import { permissionCondition } from './permissions.js';
import { compile } from './spec-helpers.js';

// Private fields (FieldDef.private: user.email, …) read as null wherever the caller's
// read-private condition does not hold for the row, in every place a field can be named.
const OWNER = [
  'resin.user.read',
  'resin.user.read-private?actor eq @__ACTOR_ID',
  'resin.organization_membership.read',
];
const READ_ONLY = ['resin.user.read', 'resin.organization_membership.read'];
/** The guarded email of the row at `alias`; the actor id is the statement's last parameter. */
const OWN_EMAIL = (alias: string, actor = '$1') => `CASE WHEN (${alias}."actor" = ${actor}::integer) THEN ${alias}."email" END`;

describe('private fields', () => {
  it('$select: the column under the read-private condition of the row', () => {
    const { sql } = compile('/user?$select=id,username,email', OWNER);
    expect(sql).toContain(`t0."username" AS "username", ${OWN_EMAIL('t0')} AS "email"`);
  });

  it('$select without a $select: every private field is guarded, the others are not', () => {
    const { sql } = compile('/user', OWNER);
    for (const f of ['email', 'has_disabled_newsletter', 'account_type', 'is_verified', 'has_been_sent_verification_email', 'platform_role']) {
      expect(sql).toContain(`CASE WHEN (t0."actor" = $1::integer) THEN t0."${f}" END AS "${f}"`);
    }
    expect(sql).toContain(`t0."first_name" AS "first_name"`);
  });

  it('inside $expand', () => {
    const { sql } = compile('/organization_membership?$select=id&$expand=user($select=email)', OWNER);
    expect(sql).toMatch(/CASE WHEN \((t\d+)\."actor" = \$1::integer\) THEN \1\."email" END AS "email"/);
  });

  it('$filter operands, through lambdas and paths', () => {
    expect(compile("/user?$select=id&$filter=email eq 'x'", OWNER).sql).toContain(`(${OWN_EMAIL('t0', '$2')} = $1::text)`);
    const lambda = compile("/organization_membership?$select=id&$filter=user/any(u:u/email eq 'x')", OWNER).sql;
    expect(lambda).toContain(`AND (${OWN_EMAIL('t1', '$2')} = $1::text)`);
    const path = compile("/organization_membership?$select=id&$filter=user/email eq 'x'", OWNER).sql;
    expect(path).toContain(`(SELECT ${OWN_EMAIL('t1', '$2')} FROM "user" AS t1`);
    const fn = compile("/user?$select=id&$filter=startswith(email,'a')", OWNER).sql;
    expect(fn).toContain(OWN_EMAIL('t0', '$2'));
    expect(fn).not.toMatch(/[^N] t0\."email"/);
  });

  it('$orderby', () => {
    expect(compile('/user?$select=id&$orderby=email asc', OWNER).sql).toContain(`ORDER BY ${OWN_EMAIL('t0')} ASC`);
  });

  it('is a typed NULL without any read-private permission (read does not imply it)', () => {
    const { sql } = compile("/user?$select=email,is_verified&$filter=email eq 'x'&$orderby=email asc", READ_ONLY);
    expect(sql).toContain(`NULL::text AS "email", NULL::boolean AS "is_verified"`);
    expect(sql).toContain(`(NULL::text = $1::text)`);
    expect(sql).not.toContain('t0."email"');
  });

  it('is the plain column with an unconditional read-private (all implies it) or as root', () => {
    for (const access of [['resin.user.all'], ['resin.user.read', 'resin.user.read-private'], 'root' as const]) {
      const { sql } = compile("/user?$select=email&$filter=email eq 'x'", access);
      expect(sql).toContain(`t0."email" AS "email"`);
      expect(sql).toContain(`(t0."email" = $1::text)`);
      expect(sql).not.toContain('CASE');
    }
  });

  it('permission texts (trusted) see the column', () => {
    const c = permissionCondition(["resin.user.read?email eq 'a@b'"], 'user', 'read');
    expect(c).toBe(`(\u0002."email" = 'a@b'::text)`);
    expect(compile('/user?$select=id', ["resin.user.read?email eq 'a@b'"]).sql).toContain(`WHERE (t0."email" = 'a@b'::text)`);
  });

  it('non-private fields are untouched', () => {
    expect(compile("/user?$select=username&$filter=username eq 'x'", READ_ONLY).sql).toContain(`(t0."username" = $1::text)`);
  });

  it('cannot be a key path', () => {
    expect(() => compile("/user(email='x')", OWNER)).toThrow(BadRequestError);
  });

  it('compiles the read-private condition once per (permission set, resource)', () => {
    expect(permissionCondition(OWNER, 'user', 'read-private')).toBe(permissionCondition([...OWNER], 'user', 'read-private'));
    expect(permissionCondition(READ_ONLY, 'user', 'read-private')).toBe(false);
  });
});
