import { describe, expect, it } from 'vitest';
import { resourceInfo } from './resources.js';
import { toColumns, validateInput } from './validate.js';

const app = resourceInfo('application');
const user = resourceInfo('user');
const none = new Set<string>();

describe('validateInput', () => {
  it('accepts known writable fields and normalises foreign keys given as {__id}', () => {
    expect(validateInput(app, { app_name: 'fleet', organization: { __id: 3 }, is_for__device_type: 4, uuid: 'u' }, 'POST', none)).toEqual({
      app_name: 'fleet',
      organization: 3,
      is_for__device_type: 4,
      uuid: 'u',
    });
  });

  it('accepts a JSON text body', () => {
    expect(validateInput(app, '{"app_name":"x"}', 'PATCH', none)).toEqual({ app_name: 'x' });
  });

  it('rejects non-objects', () => {
    for (const body of [[], 5, 'not json', true]) {
      expect(() => validateInput(app, body, 'POST', none)).toThrow('The request body must be a JSON object');
    }
  });

  it('rejects unknown and secret fields with the same message', () => {
    expect(() => validateInput(app, { nope: 1 }, 'POST', none)).toThrow("Unknown field 'nope' on resource 'application'");
    expect(() => validateInput(user, { password: 'x' }, 'PATCH', none)).toThrow("Unknown field 'password' on resource 'user'");
  });

  it("enforces writability: 'never' fields and ids never, 'create' fields only on POST", () => {
    expect(() => validateInput(app, { slug: 'x' }, 'POST', none)).toThrow("Field 'slug' on resource 'application' is not writable");
    expect(() => validateInput(app, { id: 5 }, 'POST', none)).toThrow(/not writable/);
    expect(validateInput(app, { uuid: 'x' }, 'POST', none)).toEqual({ uuid: 'x' });
    expect(() => validateInput(app, { uuid: 'x' }, 'PATCH', none)).toThrow("Field 'uuid' on resource 'application' is not writable");
  });

  it('checks types', () => {
    expect(() => validateInput(app, { app_name: 5 }, 'PATCH', none)).toThrow("Invalid value for field 'app_name' on resource 'application': expected a string");
    expect(() => validateInput(app, { organization: 'x' }, 'PATCH', none)).toThrow(/expected an integer/);
    expect(() => validateInput(app, { organization: 1.5 }, 'PATCH', none)).toThrow(/expected an integer/);
    expect(() => validateInput(app, { organization: 2 ** 31 }, 'PATCH', none)).toThrow(/expected an integer/);
    expect(() => validateInput(app, { is_public: 'yes' }, 'PATCH', none)).toThrow(/expected a boolean/);
    expect(() => validateInput(app, { is_accessible_by_support_until__date: 'soon' }, 'PATCH', none)).toThrow(/expected a date/);
    expect(validateInput(app, { is_accessible_by_support_until__date: '2026-01-01T00:00:00Z' }, 'PATCH', none)).toEqual({
      is_accessible_by_support_until__date: '2026-01-01T00:00:00.000Z',
    });
  });

  it('checks enums, lengths and nulls', () => {
    expect(() => validateInput(app, { is_of__class: 'boat' }, 'POST', none)).toThrow("Field 'is_of__class' on resource 'application' must be one of: fleet, app, block");
    expect(() => validateInput(app, { app_name: 'x'.repeat(101) }, 'PATCH', none)).toThrow('must be at most 100 characters');
    expect(() => validateInput(user, { first_name: 'x'.repeat(256) }, 'PATCH', none)).toThrow('must be at most 255 characters');
    expect(() => validateInput(app, { app_name: null }, 'PATCH', none)).toThrow("Field 'app_name' on resource 'application' must not be null");
    expect(validateInput(app, { application_type: null }, 'PATCH', none)).toEqual({ application_type: null });
  });

  it('lets through extra inputs a hook declared', () => {
    const membership = resourceInfo('organization_membership');
    expect(validateInput(membership, { username: 'bob' }, 'POST', new Set(['username']))).toEqual({ username: 'bob' });
  });
});

describe('toColumns (after before-hooks)', () => {
  it('lets hooks set server-maintained fields and serialises JSON', () => {
    const dt = resourceInfo('device_type');
    expect(toColumns(dt, { contract: { a: [1] }, slug: 's' }, 'PATCH')).toEqual({ names: ['contract', 'slug'], values: ['{"a":[1]}', 's'] });
  });

  it('requires required fields without default on POST, without naming secret ones', () => {
    expect(() => toColumns(app, { app_name: 'x' }, 'POST')).toThrow("Field 'actor' on resource 'application' is required");
    expect(() => toColumns(resourceInfo('api_key'), { is_of__actor: 1 }, 'POST')).toThrow("A required field is missing on resource 'api_key'");
    expect(toColumns(app, {}, 'PATCH')).toEqual({ names: [], values: [] });
  });

  it('refuses columns that do not exist (a hook left an extra input behind)', () => {
    expect(() => toColumns(app, { username: 'x' }, 'PATCH')).toThrow("Unknown field 'username' on resource 'application'");
  });
});
