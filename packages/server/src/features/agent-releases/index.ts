import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import type { Rules } from '../../infra/app/context.js';
import { agentBuildPath, agentReleasesRoutes } from './agent-releases.routes.js';
import { selectSupervisorBuild } from './agent-releases.repository.js';

export { agentBuildPath } from './agent-releases.routes.js';

/** The agent build of a supervisor release as the device's target state names it. */
export interface AgentBuildTarget {
  version: string;
  /** Path on the API server (GET, public). */
  url: string;
  sha256: string;
  size: number;
}

/**
 * The build of supervisor release `releaseId`, or undefined when it has none (a seeded
 * catalogue-only release). The bundled build's sha256 is the server's bundle's (built at the
 * first need).
 */
export async function agentBuildTarget(app: FastifyInstance, db: Db, releaseId: number): Promise<AgentBuildTarget | undefined> {
  const build = await selectSupervisorBuild(db, releaseId);
  if (!build) return undefined;
  if (build.bundled) {
    const bundle = await app.agentBundle();
    return { version: build.version, url: agentBuildPath(releaseId), sha256: bundle.sha256, size: bundle.body.length };
  }
  return { version: build.version, url: agentBuildPath(releaseId), sha256: build.sha256 ?? '', size: build.size ?? 0 };
}

/** Publishing Flotilla's agent builds as supervisor releases and serving them to devices. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  await app.register(agentReleasesRoutes, { db: app.context.db });
}
