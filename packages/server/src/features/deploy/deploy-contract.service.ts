import { BadRequestError, HttpError, NotFoundError } from '../../infra/errors.js';
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

/** 502 / 504: the code host failed us, not the caller. */
class BadGatewayError extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}
class GatewayTimeoutError extends HttpError {
  constructor(message: string) {
    super(504, message);
  }
}

/** 'GitHub' for the default host (the spec's wording), else the host's name. */
function hostLabel(codeHostUrl: string): string {
  const host = new URL(codeHostUrl).hostname;
  return host === 'github.com' ? 'GitHub' : host;
}

/**
 * Reads `url`, following redirects only within the raw-file host's origin (a redirect
 * elsewhere could point the server at an internal address).
 */
async function fetchSameOrigin(url: string, signal: AbortSignal): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { redirect: 'manual', signal, headers: { accept: 'text/plain, application/yaml, */*' } });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    const next = new URL(location, current);
    if (next.origin !== origin || hop >= MAX_REDIRECTS) return res;
    current = next.toString();
  }
}

async function readLimited(res: Response): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_CONTRACT_BYTES) return null;
  const buf = Buffer.from(await res.arrayBuffer());
  return buf.length > MAX_CONTRACT_BYTES ? null : buf.toString('utf8');
}

/** Spec 2 §5, §8: the repository's balena.yml, or the catalogue's errors. */
export async function fetchDeployContract(opts: CodeHostOptions, repoUrl: string): Promise<DeployContract> {
  const repo = parseRepositoryUrl(repoUrl, opts.codeHostUrl);
  if (!repo) throw new BadRequestError(`repoUrl must be a repository URL on ${opts.codeHostUrl}`);
  const failed = `Failed retrieving data from ${hostLabel(opts.codeHostUrl)}`;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let text: string | null;
  try {
    const res = await fetchSameOrigin(contractFileUrl(opts.rawUrl, repo.owner, repo.repo), signal);
    if (res.status === 404) throw new NotFoundError('Repository not found');
    if (!res.ok) throw new BadGatewayError(`${failed} (HTTP ${res.status})`);
    text = await readLimited(res);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (signal.aborted) throw new GatewayTimeoutError(`${failed}: no answer within ${Math.round(opts.timeoutMs / 100) / 10} s`);
    throw new BadGatewayError(`${failed}: the code host is unreachable`);
  }
  const contract = text === null ? null : parseContract(text);
  if (!contract) throw new BadGatewayError(INVALID_CONTRACT);
  return contract;
}
