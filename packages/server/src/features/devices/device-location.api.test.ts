import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LOCATION_MESSAGES } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../infra/config/config.js';
import { mapTileSource } from '../../infra/config/map-tiles.js';
import type { PoolDb } from '../../infra/db/db.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, insertDevice, row } from '../../../test/support/fleet-helpers.js';

/**
 * Device location (spec 2 §2 Map lens and Location page, §5 "Location save needs both
 * latitude and longitude non-empty and numeric", §7 set/unset custom location) and the map
 * tile server the dashboard is told about (FLOTILLA_MAP_TILE_URL), with the CSP that allows it.
 */

let db: PoolDb;
let drop: () => Promise<void>;
let dist: string;
let plain: FastifyInstance;
let tiled: FastifyInstance;
let baseUrl: string;
let owner: SignedUpUser;
let fleetId: number;
let typeId: number;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'flotilla-map-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>x</title>');
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  plain = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, webDistDir: dist });
  tiled = await buildApp({
    db,
    jwtSecret: TEST_JWT_SECRET,
    webDistDir: dist,
    map: { tileUrl: 'https://{s}.tiles.example.org:8443/{z}/{x}/{y}.png', attribution: '© Example contributors' },
  });
  baseUrl = await plain.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(plain);
  fleetId = await createFleet(plain, db, owner, 'LocationFleet');
  typeId = await deviceTypeId(db, 'raspberrypi3');
});

afterAll(async () => {
  await tiled.close();
  await plain.close();
  await drop();
  await rm(dist, { recursive: true, force: true });
});

const imgSrc = (csp: unknown) => String(csp).split('; ').find((d) => d.startsWith('img-src '));

describe('GET /config/dashboard and the dashboard CSP', () => {
  it('tells the dashboard there are no tiles when none are configured, and allows no other image origin', async () => {
    const res = await plain.inject({ method: 'GET', url: '/config/dashboard' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mapTileUrl: null,
      mapAttribution: null,
      docsUrl: '/docs/',
      billing: false,
      saml: true,
      captchaSiteKey: null,
      requireEmailVerification: false,
      stripePublishableKey: null,
      stripeJsUrl: null,
      billingSeller: null,
      links: { gettingStartedUrl: null, featureRequestsUrl: null, forumsUrl: null, helpCenterUrl: null, statusPageUrl: null },
      announcement: null,
    });
    const page = await plain.inject({ method: 'GET', url: '/fleets/1/devices', headers: { accept: 'text/html' } });
    expect(imgSrc(page.headers['content-security-policy'])).toBe("img-src 'self' data: blob:");
  });

  it('names the configured tile server, without authentication, and the CSP allows exactly its origin', async () => {
    const res = await tiled.inject({ method: 'GET', url: '/config/dashboard' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mapTileUrl: 'https://{s}.tiles.example.org:8443/{z}/{x}/{y}.png',
      mapAttribution: '© Example contributors',
      docsUrl: '/docs/',
      billing: false,
      saml: true,
      captchaSiteKey: null,
      requireEmailVerification: false,
      stripePublishableKey: null,
      stripeJsUrl: null,
      billingSeller: null,
      links: { gettingStartedUrl: null, featureRequestsUrl: null, forumsUrl: null, helpCenterUrl: null, statusPageUrl: null },
      announcement: null,
    });
    const page = await tiled.inject({ method: 'GET', url: '/devices/abc/location', headers: { accept: 'text/html' } });
    expect(imgSrc(page.headers['content-security-policy'])).toBe("img-src 'self' data: blob: https://*.tiles.example.org:8443");
  });

  it('allows the captcha provider\'s script and frame only when a captcha site key is set', async () => {
    const captcha = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, webDistDir: dist, accounts: { captcha: { secret: 's', siteKey: 'site-key' } } });
    try {
      const directive = (csp: unknown, name: string) => String(csp).split('; ').find((d) => d.startsWith(`${name} `));
      const withKey = (await captcha.inject({ method: 'GET', url: '/signup', headers: { accept: 'text/html' } })).headers['content-security-policy'];
      expect(directive(withKey, 'script-src')).toBe("script-src 'self' https://www.google.com https://www.gstatic.com");
      expect(directive(withKey, 'frame-src')).toBe('frame-src https://www.google.com https://www.gstatic.com');
      const without = (await plain.inject({ method: 'GET', url: '/signup', headers: { accept: 'text/html' } })).headers['content-security-policy'];
      expect(directive(without, 'script-src')).toBe("script-src 'self'");
      expect(directive(without, 'frame-src')).toBeUndefined();
    } finally {
      await captcha.close();
    }
  });

  it("keeps balena's /config as the SDK reads it", async () => {
    const res = await tiled.inject({ method: 'GET', url: '/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('deviceUrlsBase');
  });

  it('accepts a tile URL template with one origin and refuses others at start-up', () => {
    expect(mapTileSource('https://tiles.example.org/{z}/{x}/{y}.png')).toBe('https://tiles.example.org');
    expect(mapTileSource('http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:8081');
    expect(mapTileSource('https://a.{s}.example.org/{z}/{x}/{y}.png')).toBeNull();
    expect(mapTileSource('ftp://tiles.example.org/{z}/{x}/{y}.png')).toBeNull();
    expect(mapTileSource('https://user:pw@tiles.example.org/{z}/{x}/{y}.png')).toBeNull();
    expect(loadConfig({ FLOTILLA_MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png' }).FLOTILLA_MAP_TILE_URL).toBe(
      'https://tiles.example.org/{z}/{x}/{y}.png',
    );
    expect(loadConfig({ FLOTILLA_MAP_TILE_URL: '' }).FLOTILLA_MAP_TILE_URL).toBeUndefined();
    expect(() => loadConfig({ FLOTILLA_MAP_TILE_URL: 'javascript:alert(1)' })).toThrow(/FLOTILLA_MAP_TILE_URL/);
  });
});

describe('custom device location', () => {
  const coords = async (id: number) =>
    row<{ custom_latitude: string | null; custom_longitude: string | null }>(db, 'SELECT custom_latitude, custom_longitude FROM device WHERE id = $1', [id]);
  const patch = (token: string, id: number, payload: object) =>
    plain.inject({ method: 'PATCH', url: `/v7/device(${id})`, headers: bearer(token), payload });

  it('sets and unsets a manual location through balena-sdk', async () => {
    const id = await insertDevice(db, fleetId, typeId, { latitude: '10.5', longitude: '20.25' });
    const sdk = sdkClient(baseUrl);
    await sdk.auth.loginWithToken(owner.token);
    await sdk.models.device.setCustomLocation(id, { latitude: 37.98381, longitude: 23.727539 });
    expect(await coords(id)).toEqual({ custom_latitude: '37.98381', custom_longitude: '23.727539' });
    await sdk.models.device.unsetCustomLocation(id);
    expect(await coords(id)).toEqual({ custom_latitude: '', custom_longitude: '' });
  });

  it('rejects a coordinate that is not a number in range, and changes nothing', async () => {
    const id = await insertDevice(db, fleetId, typeId, { custom_latitude: '1', custom_longitude: '2' });
    const cases: [object, string][] = [
      [{ custom_latitude: '91', custom_longitude: '0' }, LOCATION_MESSAGES.latitude],
      [{ custom_latitude: 'north', custom_longitude: '0' }, LOCATION_MESSAGES.latitude],
      [{ custom_latitude: '0', custom_longitude: '-180.5' }, LOCATION_MESSAGES.longitude],
      [{ custom_latitude: '0', custom_longitude: '1e2' }, LOCATION_MESSAGES.longitude],
    ];
    for (const [payload, message] of cases) {
      const res = await patch(owner.token, id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toBe(message);
    }
    expect(await coords(id)).toEqual({ custom_latitude: '1', custom_longitude: '2' });
  });

  it('needs latitude and longitude together', async () => {
    const id = await insertDevice(db, fleetId, typeId, { custom_latitude: '1', custom_longitude: '2' });
    for (const payload of [{ custom_latitude: '5' }, { custom_latitude: '5', custom_longitude: '' }, { custom_longitude: null }]) {
      const res = await patch(owner.token, id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toBe(LOCATION_MESSAGES.pair);
    }
    expect(await coords(id)).toEqual({ custom_latitude: '1', custom_longitude: '2' });
  });

  it('lets only callers with resin.device.update set it (an observer cannot)', async () => {
    const id = await insertDevice(db, fleetId, typeId);
    const observer = await signUp(plain);
    await giveFleetRole(db, owner.orgId, fleetId, observer, 'observer');
    // The dialect answers a PATCH of rows the caller may not update without touching them.
    await patch(observer.token, id, { custom_latitude: '3', custom_longitude: '4' });
    expect(await coords(id)).toEqual({ custom_latitude: null, custom_longitude: null });
  });

  // Issue 12: balena lets a user with write rights set the device-reported fields (the
  // device's next report overwrites them); the custom location stays its own pair.
  it('lets a user with write rights set the device-reported latitude and longitude, as balena does', async () => {
    const id = await insertDevice(db, fleetId, typeId, { latitude: '1', longitude: '2' });
    const res = await patch(owner.token, id, { latitude: '3', longitude: '4' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(db, 'SELECT latitude, longitude, custom_latitude, custom_longitude FROM device WHERE id = $1', [id])).toEqual({
      latitude: '3',
      longitude: '4',
      custom_latitude: null,
      custom_longitude: null,
    });
  });
});
