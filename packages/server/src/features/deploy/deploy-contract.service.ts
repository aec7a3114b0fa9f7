import { BadGatewayError, BadRequestError } from '../../infra/errors.js';
import { fetchOutsideText } from '../../infra/http/outside-fetch.js';
import { contractFileUrl, parseContract, parseRepositoryUrl, type DeployContract } from './deploy-contract.js';

export interface CodeHostOptions {
  /** Repository URLs must be on this host (e.g. https://github.com). */
  codeHostUrl: string;
  /** Raw files are read from here (e.g. https://raw.githubusercontent.com). */
  rawUrl: string;
  /** Spec 2 §9: the contract fetch times out at 10 s; tests pass a shorter one. */
  timeoutMs: number;
}

/** Spec 2 §9: 10 s. */
export const CONTRACT_FETCH_TIMEOUT_MS = 10_000;
/** A balena.yml is a few hundred bytes; anything far larger is not one. */
const MAX_CONTRACT_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export const INVALID_CONTRACT = 'The balena.yml contract in the repository is invalid';

/** 'GitHub' for the default host (the spec's wording), else the host's name. */
function hostLabel(codeHostUrl: string): string {
  const host = new URL(codeHostUrl).hostname;
  return host === 'github.com' ? 'GitHub' : host;
}

/** Spec 2 §5, §8: the repository's balena.yml, or the catalogue's errors. */
export async function fetchDeployContract(opts: CodeHostOptions, repoUrl: string): Promise<DeployContract> {
  const repo = parseRepositoryUrl(repoUrl, opts.codeHostUrl);
  if (!repo) throw new BadRequestError(`repoUrl must be a repository URL on ${opts.codeHostUrl}`);
  const text = await fetchOutsideText(contractFileUrl(opts.rawUrl, repo.owner, repo.repo), {
    accept: 'text/plain, application/yaml, */*',
    timeoutMs: opts.timeoutMs,
    maxBytes: MAX_CONTRACT_BYTES,
    maxRedirects: MAX_REDIRECTS,
    failed: `Failed retrieving data from ${hostLabel(opts.codeHostUrl)}`,
    notFound: 'Repository not found',
  });
  const contract = text === null ? null : parseContract(text);
  if (!contract) throw new BadGatewayError(INVALID_CONTRACT);
  return contract;
}
