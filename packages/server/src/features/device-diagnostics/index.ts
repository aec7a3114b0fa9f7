import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { assertNotFrozen } from '../billing/index.js';
import { ActionRuns } from './action-runs.js';
import { diagnosticsRoutes } from './device-diagnostics.routes.js';

/** The actions service: health checks and diagnose runs on devices, stored (issue 15 item 3). */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { db, config } = app.context;
  // A frozen organization's devices run no diagnostics (issue 18), checked once the caller may see the device.
  const beforeStart = (deviceId: number) => assertNotFrozen(app, db, { devices: [deviceId] });
  const runs = new ActionRuns({ db, bus: app.bus, log: app.log, beforeStart, ...(config.diagnosticsTimeoutMs !== undefined ? { timeoutMs: { checks: config.diagnosticsTimeoutMs, diagnose: config.diagnosticsTimeoutMs } } : {}) });
  await app.register(diagnosticsRoutes, { runs });
}
