import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../infra/bus/bus.js';
import { actionChannel, type ActionRequest } from '../cloud-link/link-protocol.js';
import { ActionRelay, DEVICE_NOT_CONNECTED, DeviceNotConnectedError, GatewayTimeoutError } from './action-relay.js';

const DEVICE = 7;

describe('ActionRelay', () => {
  let bus: InProcessBus;
  let unhandled: unknown[];
  const record = (reason: unknown) => unhandled.push(reason);

  beforeEach(() => {
    bus = new InProcessBus();
    unhandled = [];
    process.on('unhandledRejection', record);
  });

  afterEach(async () => {
    process.off('unhandledRejection', record);
    await bus.close();
  });

  /** Lets Node report a rejection that has no handler (it does so after the microtask queue). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('relays the request to the link holder and resolves with its reply', async () => {
    const relay = new ActionRelay(bus, 1_000);
    await bus.subscribe(actionChannel(DEVICE), (m) => {
      const req = m as ActionRequest;
      void bus.publish(req.replyTo, { requestId: req.requestId, status: 200, body: { action: req.action } });
    });
    await expect(relay.request(DEVICE, 'blink', {})).resolves.toEqual({ status: 200, body: { action: 'blink' } });
    await relay.close();
  });

  it('is a 504 when the link holder got the request and the device does not answer in time', async () => {
    const relay = new ActionRelay(bus, 100);
    await bus.subscribe(actionChannel(DEVICE), () => undefined);
    const err = await relay.request(DEVICE, 'blink', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayTimeoutError);
    expect((err as GatewayTimeoutError).statusCode).toBe(504);
    await relay.close();
  });

  it('is a 503 when no process holds the link within the wait, with no unhandled rejection when the answer deadline passed during the wait', async () => {
    // The answer deadline (100 ms) passes while the link wait (600 ms) still runs: the old
    // relay left that deadline's rejection without a handler, which ends a server process.
    const relay = new ActionRelay(bus, 100, 600);
    const err = await relay.request(DEVICE, 'reboot', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceNotConnectedError);
    expect((err as DeviceNotConnectedError).message).toBe(DEVICE_NOT_CONNECTED);
    await settle();
    expect(unhandled).toEqual([]);
    await relay.close();
  });
});
