import { describe, expect, expectTypeOf, it } from 'vitest';
import { RuleRegistry, type HookBody } from './hooks.js';

// A hook's body is typed from the model for its resource and method; `tsc -p packages/server`
// checks the type assertions (a misspelt field or a wrong type fails the typecheck).

describe('hook bodies typed from the model', () => {
  it('types a POST body: every field of the row, optional; extra keys unknown', () => {
    type Body = HookBody<'device', 'POST'>;
    expectTypeOf<Body['device_name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Body['belongs_to__application']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Body['note']>().toEqualTypeOf<string | null | undefined>();
    // server-maintained fields a hook sets are typed too
    expectTypeOf<Body['actor']>().toEqualTypeOf<number | undefined>();
    // a Date Time may be set as a Date
    expectTypeOf<Body['last_connectivity_event']>().toEqualTypeOf<string | Date | null | undefined>();
    // keys the model lacks stay open (acceptFields) but are unknown
    expectTypeOf<Body['username']>().toEqualTypeOf<unknown>();
  });

  it('types a PATCH body without the create-only fields', () => {
    type Body = HookBody<'device', 'PATCH'>;
    expectTypeOf<Body['device_name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Body['uuid']>().toEqualTypeOf<unknown>(); // writable: 'create'
    expectTypeOf<HookBody<'device', 'POST'>['uuid']>().toEqualTypeOf<string | undefined>();
  });

  it('gives register() hooks the body of their resource and method', () => {
    const rules = new RuleRegistry();
    const unregister = rules.register('device', 'PATCH', {
      before: ({ body }) => {
        expectTypeOf(body).toEqualTypeOf<HookBody<'device', 'PATCH'>>();
        // @ts-expect-error: device_name is a string
        body.device_name = 5;
        // @ts-expect-error: api_heartbeat_state is one of the model's enum values
        body.api_heartbeat_state = 'asleep';
        body.is_online = true;
      },
    });
    // acceptFields: the client sends these in its own shape, so they are unknown in `before`
    rules.register('invitee__is_invited_to__application', 'POST', {
      acceptFields: ['invitee'],
      before: ({ body }) => {
        expectTypeOf(body.invitee).toEqualTypeOf<unknown>();
        expectTypeOf(body.message).toEqualTypeOf<string | null | undefined>();
      },
    });
    expect(rules.hooksFor('device', 'PATCH')).toHaveLength(1);
    unregister();
    expect(rules.hooksFor('device', 'PATCH')).toHaveLength(0);
  });

  it('refuses a resource the model does not have', () => {
    const rules = new RuleRegistry();
    // @ts-expect-error: not a resource of the model
    expect(() => rules.register('gadget', 'POST', {})).toThrow();
  });
});
