import { randomUUID } from 'node:crypto';
import type { Bus } from '../../infra/bus/bus.js';
import { HttpError } from '../../infra/errors.js';
import { actionChannel, type ActionReply, type ActionRequest, type DeviceAction } from '../cloud-link/index.js';

/** Contract: a device that does not answer an action within 30 s is a 504. */
export const ACTION_TIMEOUT_MS = 30_000;

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
    const message: ActionRequest = { requestId, action, params, replyTo: this.replyTo };
    try {
      await this.bus.publish(actionChannel(deviceId), message);
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
