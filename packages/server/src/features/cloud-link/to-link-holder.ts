import type { Bus } from '../../infra/bus/bus.js';
import { actionChannel } from './link-protocol.js';

/** Between attempts while no process holds the device's link. */
const RETRY_MS = 250;

/**
 * Sends `message` to whichever process holds the device's cloud link. When none does (its
 * node died and the device has not reconnected through the load balancer yet, which takes a
 * second or two), the message reached nobody, so it is sent again every 250 ms until it
 * reaches one or `waitMs` has passed (or `wanted` turns false). Resolves whether it reached one.
 */
export async function sendToLinkHolder(bus: Bus, deviceId: number, message: unknown, waitMs: number, wanted: () => boolean = () => true): Promise<boolean> {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    if ((await bus.publish(actionChannel(deviceId), message)) > 0) return true;
    if (Date.now() + RETRY_MS > giveUpAt || !wanted()) return false;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
