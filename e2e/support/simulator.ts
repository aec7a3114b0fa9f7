import { expect, type APIRequestContext } from '@playwright/test';
import { startSimulation, type Simulation, type SimulateOptions } from '@flotilla/agent';
import type { ApiUser } from './api';
import { E2E_PORTS } from './ports';

export type { Simulation };

/** The e2e server the simulated devices talk to (playwright.config.ts's baseURL). */
export const E2E_API = `http://127.0.0.1:${E2E_PORTS.server}`;

/** POST /api-key/v2/ as `user`: a provisioning key of the fleet; returns the key. */
export async function createProvisioningKey(request: APIRequestContext, user: ApiUser, fleetId: number, name = 'e2e simulator'): Promise<string> {
  const res = await request.post('/api-key/v2/', {
    headers: { Authorization: `Bearer ${user.token}` },
    data: { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'], name, expiryDate: null },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as string;
}

/**
 * Starts `count` virtual devices of packages/agent's simulator in the test process against
 * the e2e server: fast polls, short simulated downloads, cloud links on. The caller stops the
 * simulation in a `finally`.
 */
export function simulateFleet(options: { provisioningKey: string; fleetId: number; deviceType: string; count: number } & Partial<SimulateOptions>): Promise<Simulation> {
  return startSimulation({
    api: E2E_API,
    pollIntervalMs: 2_000,
    metricsIntervalMs: 10_000,
    downloadMs: [1_000, 3_000],
    applyMs: [500, 1_500],
    // Long enough for the device page to see the link down, short enough for the test.
    rebootOfflineMs: [6_000, 8_000],
    log: () => {},
    ...options,
  });
}
