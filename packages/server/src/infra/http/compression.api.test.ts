import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.js';
import { buildTestApp, removeOsCatalogue, insertFleet, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Issue 11 item 2: JSON API responses above the threshold go out brotli- or gzip-compressed
// (the dashboard's fleet list is tens of KB), smaller ones as they are; over real HTTP, so
// what is measured is what a browser or balena-sdk receives.
let t: TestApp;
let owner: SignedUpUser;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  // This file compares every application a caller reads with the ones it made.
  await removeOsCatalogue(t.db);
  owner = await signUp(t.app);
  for (let i = 0; i < 60; i++) await insertFleet(t.db, owner, `CompressedFleet${String(i).padStart(2, '0')}`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** A raw GET (node:http does not decompress): status, headers and the bytes as sent. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: { authorization: `Bearer ${owner.token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const LIST = '/v7/application?$expand=organization&$orderby=app_name asc';

describe('JSON response compression', () => {
  it('compresses a fleet list above the threshold in the coding asked for, with Vary and the right length', async () => {
    const plain = await rawGet(LIST, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10 * COMPRESSION_THRESHOLD_BYTES);
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const fleets = JSON.parse(plain.body.toString()) as { d: { app_name: string }[] };
    expect(fleets.d).toHaveLength(60);

    for (const [accept, coding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0.1, gzip;q=0.9', 'gzip', gunzipSync],
    ] as const) {
      const res = await rawGet(LIST, { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length, accept).toBeLessThan(plain.body.length / 5);
      expect(JSON.parse(decode(res.body).toString()), accept).toEqual(fleets);
    }
    const identity = await rawGet(LIST, { 'accept-encoding': 'identity, gzip;q=0' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toEqual(plain.body);
  });

  it('sends responses below the threshold as they are', async () => {
    const res = await rawGet('/v7/application?$select=id&$top=1', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).d).toHaveLength(1);
    const ping = await rawGet('/ping', { 'accept-encoding': 'gzip' });
    expect(ping.headers['content-encoding']).toBeUndefined();
    expect(ping.body.toString()).toBe('OK');
  });

  it('keeps balena-sdk working (it asks for compressed answers)', async () => {
    const sdk = sdkClient(base);
    await sdk.auth.loginWithToken(owner.token);
    const apps = await sdk.pine.get({ resource: 'application', options: { $select: ['app_name'], $orderby: { app_name: 'asc' } } });
    expect(apps).toHaveLength(60);
    expect(apps[59]!.app_name).toBe('CompressedFleet59');
  });
});
