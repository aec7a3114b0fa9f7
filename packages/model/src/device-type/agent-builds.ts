/**
 * Flotilla's agent as a supervisor release (issue 17 item 4). The agent is the device's
 * "supervisor": its version is the `supervisor_version` it reports and the `raw_version` of a
 * release of the public supervisor blocks (`balena_os/<arch>-supervisor`). A release that
 * carries an agent build (a single-file ES module, see packages/server provisioning) can be
 * installed by a running agent; the seeded catalogue releases without one are catalogue only.
 */

/** The version of this checkout's agent: what it reports, and the bundle's banner says. Bump it with every agent change devices should take. */
export const AGENT_VERSION = '14.0.0';

/** The second line of every agent build starts with this, then the version, then ':'. */
export const AGENT_BUILD_BANNER = '// flotilla-agent ';

/** The largest agent build the server accepts (the bundle is about 2 MB). */
export const MAX_AGENT_BUILD_BYTES = 32 * 1024 * 1024;

/** The release tag that marks a supervisor release with an agent build (value: the build's sha256, or `bundled`). */
export const AGENT_BUILD_TAG = 'flotilla-agent-build';

/**
 * The version an agent build declares in its banner (`#!/usr/bin/env node` then
 * `// flotilla-agent <version>: …`), or undefined when the text is not an agent build.
 */
export function agentBuildVersion(head: string): string | undefined {
  const lines = head.split('\n', 2);
  if (lines[0] !== '#!/usr/bin/env node' || !lines[1]?.startsWith(AGENT_BUILD_BANNER)) return undefined;
  const rest = lines[1].slice(AGENT_BUILD_BANNER.length);
  const colon = rest.indexOf(':');
  const version = colon > 0 ? rest.slice(0, colon) : '';
  return isPlainSemver(version) ? version : undefined;
}

/** A plain semver `major.minor.patch` (no prerelease or build part): what a supervisor release's version must be. */
export const isPlainSemver = (v: string): boolean => /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/.test(v);

/**
 * One supervisor release that `POST /admin/v1/supervisor-releases` made (its answer is
 * `{ releases: PublishedSupervisorRelease[] }`): the server, `flotilla deploy --supervisor`
 * and the `/admin` page share this shape.
 */
export interface PublishedSupervisorRelease {
  id: number;
  arch: string;
  version: string;
  sha256: string;
  size: number;
}
