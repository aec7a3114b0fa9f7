import { createHash } from 'node:crypto';
import { AGENT_BUILD_TAG, agentBuildVersion, isPlainSemver, PLATFORM_ORGANIZATION, SUPERVISOR_BLOCK_SUFFIX, type PublishedSupervisorRelease } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import { catalogueCommit } from '../reference-data/index.js';
import { insertSupervisorRelease, selectSupervisorBlocks, supervisorReleaseExists } from './agent-releases.repository.js';

/** One release `publishAgentBuild` made (the endpoint's answer, shared with the CLI and the dashboard). */
export type PublishedRelease = PublishedSupervisorRelease;

/**
 * Publishes `body`, a single-file agent build of version `version`, as a release of the
 * supervisor block of `arch` (a CPU architecture slug) or of every architecture (`all`), in
 * one transaction: all or nothing. The build must declare that version in its banner, so a
 * device that installs it reports the release's version (a build that said otherwise would
 * be offered to the device again and again).
 */
export async function publishAgentBuild(db: Db, userId: number, version: string, arch: string, body: Buffer): Promise<PublishedRelease[]> {
  if (!isPlainSemver(version)) throw new BadRequestError(`Invalid supervisor version '${version.slice(0, 64)}': use a version like 17.1.0`);
  if (body.length === 0) throw new BadRequestError('The request body is empty: send the agent build (the single file GET /download/agent serves)');
  const declared = agentBuildVersion(body.subarray(0, 512).toString('utf8'));
  if (declared === undefined) throw new BadRequestError('The body is not a Flotilla agent build: its first lines are not the agent bundle\'s banner');
  if (declared !== version) throw new BadRequestError(`The build is agent version ${declared}, not ${version}: publish it as ${declared} or build the agent with version ${version}`);
  const sha256 = createHash('sha256').update(body).digest('hex');
  return db.tx(async (tx) => {
    const blocks = await selectSupervisorBlocks(tx, PLATFORM_ORGANIZATION.handle, SUPERVISOR_BLOCK_SUFFIX, arch === 'all' ? null : arch);
    if (blocks.length === 0) throw new BadRequestError(`Unknown CPU architecture '${arch.slice(0, 64)}': use one of the catalogue's architectures or 'all'`);
    const out: PublishedRelease[] = [];
    for (const block of blocks) {
      if (await supervisorReleaseExists(tx, block.id, version)) throw new BadRequestError(`Supervisor release ${version} already exists for ${block.arch}`);
      const id = await insertSupervisorRelease(tx, {
        application: block.id,
        commit: catalogueCommit(block.slug, version),
        version,
        userId,
        tagKey: AGENT_BUILD_TAG,
        content: body,
        sha256,
      });
      out.push({ id, arch: block.arch, version, sha256, size: body.length });
    }
    return out;
  });
}
