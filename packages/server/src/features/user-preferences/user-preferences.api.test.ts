import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_COLOR_INVALID } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { bearer, buildTestApp, createTestDb, signUp, TEST_JWT_SECRET, type TestApp } from '../../../test/harness.js';

// Preferences: the profile fields and the appearance preferences stored per user (spec 1 §2, §5).
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const patchMe = (token: string, userId: number, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `/v7/user(${userId})`, headers: bearer(token), payload });
const readMe = async (token: string, userId: number, fields: string) =>
  (await t.app.inject({ method: 'GET', url: `/v7/user(${userId})?$select=${fields}`, headers: bearer(token) })).json<{ d: Record<string, unknown>[] }>().d[0];

describe('profile', () => {
  it('saves the four profile fields trimmed', async () => {
    const u = await signUp(t.app);
    const res = await patchMe(u.token, u.userId, { first_name: ' Ada ', last_name: 'Lovelace', company: 'Engines Ltd', account_type: 'professional' });
    expect(res.statusCode).toBe(200);
    expect(await readMe(u.token, u.userId, 'first_name,last_name,company,account_type')).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Engines Ltd',
      account_type: 'professional',
    });
  });

  it('refuses an empty field or an unknown account type and changes nothing', async () => {
    const u = await signUp(t.app);
    await patchMe(u.token, u.userId, { first_name: 'Ada', last_name: 'L', company: 'C', account_type: 'personal' });
    const blank = await patchMe(u.token, u.userId, { first_name: 'Grace', company: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toBe('Company is required');
    const nullName = await patchMe(u.token, u.userId, { last_name: null });
    expect(nullName.statusCode).toBe(400);
    const badType = await patchMe(u.token, u.userId, { account_type: 'corporate' });
    expect(badType.statusCode).toBe(400);
    expect(await readMe(u.token, u.userId, 'first_name,last_name,company,account_type')).toEqual({
      first_name: 'Ada',
      last_name: 'L',
      company: 'C',
      account_type: 'personal',
    });
  });
});

describe('appearance', () => {
  it('stores the header colour lowercased, resets it to null, and refuses a non-colour', async () => {
    const u = await signUp(t.app);
    expect((await patchMe(u.token, u.userId, { header_color: '#A1B2C3', shows_navigation_stripes: true, displays_apps: true })).statusCode).toBe(200);
    expect(await readMe(u.token, u.userId, 'header_color,shows_navigation_stripes,displays_apps')).toEqual({
      header_color: '#a1b2c3',
      shows_navigation_stripes: true,
      displays_apps: true,
    });
    for (const bad of ['red', '#12345', '#1234567', 'url(x)']) {
      const res = await patchMe(u.token, u.userId, { header_color: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe(HEADER_COLOR_INVALID);
    }
    expect((await readMe(u.token, u.userId, 'header_color'))?.header_color).toBe('#a1b2c3');
    await patchMe(u.token, u.userId, { header_color: null });
    expect((await readMe(u.token, u.userId, 'header_color'))?.header_color).toBeNull();
  });

  it('keeps the appearance private: another user neither reads nor changes it', async () => {
    const owner = await signUp(t.app);
    await patchMe(owner.token, owner.userId, { header_color: '#112233' });
    const other = await signUp(t.app);
    const res = await patchMe(other.token, owner.userId, { header_color: '#445566' });
    expect(res.statusCode).toBe(200); // no row the caller may update: nothing changes
    expect((await t.db.query('SELECT header_color FROM "user" WHERE id = $1', [owner.userId])).rows[0]).toEqual({ header_color: '#112233' });
  });

  it('tells the dashboard whether this is a staging deployment', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/config/preferences' })).json()).toEqual({ staging: false });
    const staging = await createTestDb();
    const app = await buildApp({ db: staging.db, jwtSecret: TEST_JWT_SECRET, staging: true });
    try {
      expect((await app.inject({ method: 'GET', url: '/config/preferences' })).json()).toEqual({ staging: true });
    } finally {
      await app.close();
      await staging.drop();
    }
  });
});
