import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, removeOsCatalogue, insertFleet, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Issue 11 (1e): null literals in comparisons and arithmetic. Every such $filter is either
// correct SQL (OData: an ordering comparison with null is false, arithmetic with null is
// null, `null eq null` is true) or a 400 with a message; never a bind-parameter mismatch 500.

let t: TestApp;
let alice: SignedUpUser;
let fleetIds: number[];

async function get(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(alice.token) });
  return { status: res.statusCode, body: res.json() as unknown };
}
async function ids(filter: string): Promise<number[]> {
  const res = await get(`/v7/application?$select=id&$orderby=id asc&$filter=${encodeURIComponent(filter)}`);
  expect(res.status, `${filter} → ${JSON.stringify(res.body)}`).toBe(200);
  return (res.body as { d: { id: number }[] }).d.map((r) => r.id);
}

beforeAll(async () => {
  t = await buildTestApp();
  // These tests compare every application a caller reads with the ones they made.
  await removeOsCatalogue(t.db);
  alice = await signUp(t.app);
  fleetIds = [await insertFleet(t.db, alice, 'nulls-one'), await insertFleet(t.db, alice, 'nulls-two')];
});
afterAll(async () => {
  await t.close();
});

describe('null literals in $filter', () => {
  it('ordering comparisons with null are false, also anonymously, with literals and columns on either side', async () => {
    for (const filter of [
      '1 gt null',
      'null lt 2',
      '2 add 1 gt null',
      'null ge 2 sub 1',
      'null gt null',
      'id gt null',
      'null le id',
      'id add 1 gt null',
      "app_name lt null",
      "null gt 'x'",
      'created_at gt null',
      'organization/id gt null',
      'length(app_name) gt null',
      'owns__device/$count gt null',
      "organization/any(o:o/id gt null)",
    ]) {
      expect(await ids(filter), filter).toEqual([]);
      expect(await ids(`not (${filter})`), `not (${filter})`).toEqual(fleetIds);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/v7/device_type?$select=id&$filter=1 gt null' });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    expect(anonymous.json()).toEqual({ d: [] });
  });

  it('arithmetic with null is null', async () => {
    for (const filter of [
      'null add null eq null',
      'id add null eq null',
      'null sub id eq null',
      '1 mul null eq null',
      '(2 add 1) add null eq null',
      'null mod 2 eq null',
      'null eq 1 add null',
      'created_at add null eq null',
      "created_at sub null eq null",
      "duration'P1D' add null eq null",
    ]) {
      expect(await ids(filter), filter).toEqual(fleetIds);
    }
    for (const filter of ['id add null eq 1', 'id add null ne null', 'null add 1 gt 0', '1 add null lt 5', '(id add null) gt id']) {
      expect(await ids(filter), filter).toEqual([]);
    }
  });

  it('null in equality, lists, functions, lambdas and $expand', async () => {
    expect(await ids('null eq null')).toEqual(fleetIds);
    expect(await ids('null ne null')).toEqual([]);
    expect(await ids('1 eq null')).toEqual([]);
    expect(await ids('1 ne null')).toEqual(fleetIds);
    expect(await ids('null in (1, 2)')).toEqual([]);
    expect(await ids('id in (null)')).toEqual([]);
    expect(await ids(`id in (null, ${fleetIds[0]})`)).toEqual([fleetIds[0]]);
    expect(await ids("tolower(null) eq 'a'")).toEqual([]);
    expect(await ids('length(null) eq null')).toEqual(fleetIds);
    expect(await ids('round(null) gt 1')).toEqual([]);
    expect(await ids('year(null) eq 2020')).toEqual([]);
    expect(await ids("contains(app_name, null)")).toEqual([]);
    const expanded = await get(`/v7/application?$select=id&$expand=owns__device($filter=1 gt null),organization($select=id;$filter=null lt 2)`);
    expect(expanded.status, JSON.stringify(expanded.body)).toBe(200);
  });

  it('never a 500: null in every operand position of functions, lists and lambdas', async () => {
    for (const filter of [
      "substring(app_name, null) eq 'a'",
      "substring(null, 1, null) eq null",
      'concat(null, null) eq null',
      "indexof(null, 'a') eq 1",
      'startswith(null, null)',
      "endswith(app_name, null)",
      'totalseconds(null) gt 1',
      'date(null) eq null',
      'time(null) lt null',
      'fractionalseconds(null) ge 0',
      'null in (null)',
      "null add duration'P1D' eq null",
      'now() sub null eq null',
      'round(null add 1) eq null',
      'length(replace(null, null, null)) gt null',
      'not (null eq null)',
      'owns__device/any(d:d/id gt null)',
      'owns__device/all(d:null lt d/id)',
      'owns__device/$count($filter=null ge id) gt null',
      'is_public eq null',
      'null ne is_public',
      'null gt true',
      "created_at ge null sub duration'P1D'",
    ]) {
      const res = await get(`/v7/application?$select=id&$filter=${encodeURIComponent(filter)}`);
      expect([200, 400], `${filter} → ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 400) expect(typeof res.body, filter).toBe('string');
    }
  });

  it('shapes that cannot have a type are a 400 with a message', async () => {
    for (const filter of ["'a' add null eq null", 'null add true eq null', 'null', 'null add null', 'is_public add null eq null', "null add 'x' gt 1"]) {
      const res = await get(`/v7/application?$select=id&$filter=${encodeURIComponent(filter)}`);
      expect(res.status, `${filter} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(typeof res.body, filter).toBe('string');
    }
  });
});
