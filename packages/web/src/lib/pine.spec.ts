import type { ApiRow, Deferred } from '@flotilla/model';
import { getSdk } from 'balena-sdk';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';

// Queries and rows typed from the model: `tsc -p packages/web` checks the type assertions (a
// field or navigation the model lacks fails the typecheck); the runtime part checks that the
// helper sends the query as written.
vi.mock('./sdk', () => ({ sdk: getSdk({ apiUrl: 'http://flotilla.test', dataDirectory: false }) }));
const { pineCount, pineGet, pineGetOne } = await import('./pine');
type Result<R extends Parameters<typeof pineGet>[0], Q> = import('./pine').Result<R, Q>;
const { sdk } = await import('./sdk');

describe('pine typed from the model', () => {
  it('types rows by $select and $expand (to-one and to-many as arrays, counts as numbers)', () => {
    type Q = {
      $select: ['id', 'device_name', 'overall_status', 'is_running__release'];
      $expand: { belongs_to__application: { $select: ['app_name'] }; device_tag: { $count: true } };
    };
    type Row = Result<'device', Q>;
    expectTypeOf<Row>().toEqualTypeOf<{
      id: number;
      device_name: string;
      overall_status: ApiRow<'device'>['overall_status'];
      is_running__release: Deferred | null;
      belongs_to__application: { app_name: string }[];
      device_tag: number;
    }>();
    expectTypeOf<Result<'device_type', { $select: 'slug' }>>().toEqualTypeOf<{ slug: string }>();
    expectTypeOf<Result<'release', { $expand: 'release_tag' }>['release_tag']>().toEqualTypeOf<ApiRow<'release_tag'>[]>();
  });

  it('refuses fields and navigations the model does not have', () => {
    const never = () => false;
    if (never()) {
      // @ts-expect-error: device has no `colour`
      void pineGet('device', { $select: ['id', 'colour'] });
      // @ts-expect-error: uuid is a field, not a navigation
      void pineGet('device', { $expand: { uuid: {} } });
      // @ts-expect-error: not a resource of the model
      void pineGet('gadget', {});
    }
    expect(never()).toBe(false);
  });

  it('sends the query as written and hands back the rows', async () => {
    const sent: string[] = [];
    vi.spyOn(sdk.pine, 'get').mockImplementation((async (params: Parameters<typeof sdk.pine.compile>[0]) => {
      sent.push(decodeURIComponent(sdk.pine.compile(params)));
      return sent.length === 3 ? 7 : [{ id: 1, uuid: 'abc' }];
    }) as typeof sdk.pine.get);
    const rows = await pineGet('device', { $select: ['id', 'uuid'], $filter: { belongs_to__application: 3 } });
    expect(rows).toEqual([{ id: 1, uuid: 'abc' }]);
    expectTypeOf(rows).toEqualTypeOf<{ id: number; uuid: string }[]>();
    await pineGetOne('device', { uuid: 'abc' }, { $select: 'id' });
    expect(await pineCount('device', { $filter: { is_online: true } })).toBe(7);
    expect(sent[0]).toBe('device?$select=id,uuid&$filter=belongs_to__application eq 3');
    expect(sent[1]).toBe("device(uuid='abc')?$select=id");
    expect(sent[2]).toBe('device/$count?$filter=is_online eq true');
  });
});
