import { randomUUID } from 'node:crypto';
import type { Bus } from '../../infra/bus/bus.js';
import { HttpError } from '../../infra/errors.js';
import { sendToLinkHolder, type ActionReply, type ActionRequest, type DeviceAction } from '../cloud-link/index.js';

/** Contract: a device that does not answer an action within 30 s is a 504. */
export const ACTION_TIMEOUT_MS = 30_000;

/**
 * How long an action waits for the device's cloud link when no process holds it: an agent
 * whose node died reconnects through the load balancer within a second or two, and the
 * action then goes through rather than waiting out the 30 s timeout for nobody.
 */
export const LINK_WAIT_MS = 10_000;

export const DEVICE_NOT_CONNECTED = 'The device is not connected right now (its connection to the cloud dropped and has not come back). Try again once it is online.';

export class DeviceNotConnectedError extends HttpError {
  constructor() {
    super(503, DEVICE_NOT_CONNECTED);
  }
}

export class GatewayTimeoutError extends HttpError {
  constructor(message = 'The device did not answer') {
    super(504, message);
  }
}

/**
 * Sends actions to whichever process holds a device's cloud link and awaits the device's
 * result. Each process listens on one reply channel of its own (subscribed on first use),
 * so an action costs one PUBLISH each way and no per-request subscription.
 */
export class ActionRelay {
  private readonly replyTo = `device-link:reply:${randomUUID()}`;
  private readonly pending = new Map<string, (reply: ActionReply) => void>();
  private listening: Promise<() => Promise<void>> | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly timeoutMs = ACTION_TIMEOUT_MS,
    private readonly linkWaitMs = Math.min(LINK_WAIT_MS, timeoutMs),
  ) {}

  private listen(): Promise<unknown> {
    this.listening ??= this.bus.subscribe(this.replyTo, (m) => {
      const reply = m as ActionReply;
      if (typeof reply?.requestId !== 'string') return;
      this.pending.get(reply.requestId)?.(reply);
    });
    return this.listening;
  }

  async request(deviceId: number, action: DeviceAction, params: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    await this.listen();
    const requestId = randomUUID();
    const answered = new Promise<ActionReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new GatewayTimeoutError());
      }, this.timeoutMs);
      this.pending.set(requestId, (reply) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(reply);
      });
    });
    // The answer's deadline runs from now, so it can pass while the link wait below is still
    // running (both are the timeout when it is shorter than LINK_WAIT_MS); that request then
    // ends with the link wait's error, and this rejection must not be left unhandled (it
    // would end the server process).
    answered.catch(() => undefined);
    const message: ActionRequest = { requestId, action, params, replyTo: this.replyTo };
    try {
      if (!(await sendToLinkHolder(this.bus, deviceId, message, this.linkWaitMs))) throw new DeviceNotConnectedError();
    } catch (err) {
      this.pending.get(requestId)?.({ requestId, status: 0, body: null });
      throw err;
    }
    const reply = await answered;
    return { status: reply.status, body: reply.body };
  }

  async close(): Promise<void> {
    const off = await this.listening?.catch(() => undefined);
    this.listening = undefined;
    await off?.();
  }
}
