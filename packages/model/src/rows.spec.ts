import { describe, expectTypeOf, it } from 'vitest';
import { model } from './model.js';
import type { ApiRow, Deferred, Expanded, FieldName, NavigationName, Patch, PostBody, ResourceName, Row, WebResource } from './rows.js';

// Type-level tests: `tsc -p packages/model` checks them (a wrong type or a field the model
// lacks fails the typecheck); at runtime they only check that the names agree with `model`.

describe('row types derived from the model', () => {
  it('names every resource of the runtime model, and only those', () => {
    expectTypeOf<'device'>().toExtend<ResourceName>();
    expectTypeOf<'device_environment_variable'>().toExtend<ResourceName>();
    // @ts-expect-error: not a resource of the model
    expectTypeOf<'gadget'>().toExtend<ResourceName>();
    const names: ResourceName[] = Object.keys(model) as ResourceName[];
    expectTypeOf(names).toEqualTypeOf<ResourceName[]>();
  });

  it('types each field by its FieldType, nullable unless required or Serial', () => {
    type Device = Row<'device'>;
    expectTypeOf<Device['id']>().toEqualTypeOf<number>();
    expectTypeOf<Device['uuid']>().toEqualTypeOf<string>();
    expectTypeOf<Device['note']>().toEqualTypeOf<string | null>();
    expectTypeOf<Device['is_online']>().toEqualTypeOf<boolean>();
    expectTypeOf<Device['memory_total']>().toEqualTypeOf<number | null>();
    expectTypeOf<Device['belongs_to__application']>().toEqualTypeOf<number>();
    expectTypeOf<Device['is_pinned_on__release']>().toEqualTypeOf<number | null>();
    expectTypeOf<Device['api_heartbeat_state']>().toEqualTypeOf<'online' | 'offline' | 'timeout' | 'unknown'>();
    expectTypeOf<Device['overall_status']>().toEqualTypeOf<
      'configuring' | 'operational' | 'inactive' | 'post-provisioning' | 'updating' | 'reduced-functionality' | 'disconnected' | null
    >();
    expectTypeOf<Row<'release'>['composition']>().toEqualTypeOf<unknown>();
    expectTypeOf<Row<'release_asset'>['asset']>().toEqualTypeOf<WebResource | null>();
    // Resources built by a helper keep their field names too.
    expectTypeOf<Row<'device_environment_variable'>['device']>().toEqualTypeOf<number>();
    expectTypeOf<Row<'device_service_environment_variable'>['service_install']>().toEqualTypeOf<number>();
  });

  it('rejects a field the model does not have', () => {
    const device = {} as Row<'device'>;
    // @ts-expect-error: the device resource has no `colour`
    void device.colour;
    // @ts-expect-error: nor a `device_colour` field name
    expectTypeOf<'device_colour'>().toExtend<FieldName<'device'>>();
  });

  it('answers API rows with FKs as {__id}, without secret fields', () => {
    expectTypeOf<ApiRow<'device'>['belongs_to__application']>().toEqualTypeOf<Deferred>();
    expectTypeOf<ApiRow<'device'>['is_running__release']>().toEqualTypeOf<Deferred | null>();
    expectTypeOf<Row<'user'>>().toHaveProperty('password');
    expectTypeOf<ApiRow<'user'>>().not.toHaveProperty('password');
    // private fields read as null where the caller may not read them
    expectTypeOf<ApiRow<'user'>['email']>().toEqualTypeOf<string | null>();
  });

  it('types $expanded navigations, to-one and to-many, nested', () => {
    expectTypeOf<NavigationName<'device'>>().toExtend<string>();
    expectTypeOf<'belongs_to__application'>().toExtend<NavigationName<'device'>>();
    expectTypeOf<'device_tag'>().toExtend<NavigationName<'device'>>();
    // @ts-expect-error: uuid is a field, not a navigation
    expectTypeOf<'uuid'>().toExtend<NavigationName<'device'>>();

    type D = Expanded<'device', 'belongs_to__application' | 'device_tag'>;
    expectTypeOf<D['belongs_to__application']>().toEqualTypeOf<ApiRow<'application'>[]>();
    expectTypeOf<D['device_tag']>().toEqualTypeOf<ApiRow<'device_tag'>[]>();
    expectTypeOf<D['is_of__device_type']>().toEqualTypeOf<Deferred>();
    expectTypeOf<D['device_name']>().toEqualTypeOf<string>();

    type A = Expanded<'application', { owns__device: 'is_of__device_type'; organization: true }>;
    expectTypeOf<A['owns__device'][number]['is_of__device_type']>().toEqualTypeOf<ApiRow<'device_type'>[]>();
    expectTypeOf<A['owns__device'][number]['belongs_to__application']>().toEqualTypeOf<Deferred>();
    expectTypeOf<A['organization']>().toEqualTypeOf<ApiRow<'organization'>[]>();
    expectTypeOf<Expanded<'device'>>().toEqualTypeOf<ApiRow<'device'>>();
  });

  it('lets a POST name the writable fields, requiring those without a default', () => {
    expectTypeOf<{ uuid: string; device_name: string; belongs_to__application: number; is_of__device_type: number }>().toExtend<
      PostBody<'device'>
    >();
    // device_name is required and has no default
    expectTypeOf<{ uuid: string; belongs_to__application: number; is_of__device_type: number }>().not.toExtend<PostBody<'device'>>();
    expectTypeOf<PostBody<'device'>>().toHaveProperty('note');
    // server-maintained: never in a body
    expectTypeOf<PostBody<'device'>>().not.toHaveProperty('actor');
    expectTypeOf<PostBody<'device'>>().not.toHaveProperty('overall_status');
    expectTypeOf<PostBody<'device'>>().not.toHaveProperty('id');
    // a default reference makes an otherwise required FK optional
    expectTypeOf<{ is_invited_to__application: number; invitee: number }>().toExtend<PostBody<'invitee__is_invited_to__application'>>();
  });

  it('lets a PATCH name only the fields writable after creation, all optional', () => {
    expectTypeOf<{ device_name: string }>().toExtend<Patch<'device'>>();
    expectTypeOf<Record<string, never>>().toExtend<Patch<'device'>>();
    expectTypeOf<Patch<'device'>>().not.toHaveProperty('uuid'); // writable: 'create'
    expectTypeOf<Patch<'device'>>().not.toHaveProperty('actor'); // writable: 'never'
    expectTypeOf<Patch<'device'>['note']>().toEqualTypeOf<string | null | undefined>();
  });
});
