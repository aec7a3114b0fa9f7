import type { DeployContract } from '@flotilla/model';
import { createRequire } from 'node:module';

export type { DeployContract };

/** Owner and repository names as code hosts allow them; no dot-only segments. */
const SEGMENT = /^(?!\.+$)[A-Za-z0-9_.-]{1,100}$/;

/**
 * The owner and repository of `repoUrl` when it is an http(s) URL on the configured code
 * host (same protocol, host and port), such as `https://github.com/owner/repo(.git)`.
 * Anything else is refused, so the server never fetches a host the caller chose.
 */
export function parseRepositoryUrl(repoUrl: string, codeHostUrl: string): { owner: string; repo: string } | null {
  if (!URL.canParse(repoUrl)) return null;
  const url = new URL(repoUrl);
  const host = new URL(codeHostUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== host.origin || url.username || url.password) return null;
  const base = host.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${base}/`)) return null;
  const parts = url.pathname.slice(base.length + 1).replace(/\/+$/, '').split('/');
  if (parts.length !== 2) return null;
  const owner = parts[0]!;
  const repo = parts[1]!.replace(/\.git$/, '');
  if (!SEGMENT.test(owner) || !SEGMENT.test(repo)) return null;
  return { owner, repo };
}

/** Where the contract file of `owner/repo` is on the raw-file host (default branch = HEAD). */
export function contractFileUrl(rawBaseUrl: string, owner: string, repo: string): string {
  const base = rawBaseUrl.replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/HEAD/balena.yml`;
}

const optionalString = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

// The YAML parser loads with the first contract read (/deploy), not at every start.
const require = createRequire(import.meta.url);

/** Parses and checks a balena.yml; null when it is not YAML or lacks a name or a type. */
export function parseContract(text: string): DeployContract | null {
  let doc: unknown;
  try {
    const { parse } = require('yaml') as typeof import('yaml');
    doc = parse(text, { maxAliasCount: 50 });
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const c = doc as Record<string, unknown>;
  const name = optionalString(c.name);
  const type = optionalString(c.type);
  if (!name || !type) return null;
  const data = typeof c.data === 'object' && c.data !== null && !Array.isArray(c.data) ? (c.data as Record<string, unknown>) : {};
  const contract: DeployContract = { name, type };
  const description = optionalString(c.description);
  if (description) contract.description = description;
  const version = typeof c.version === 'number' ? String(c.version) : optionalString(c.version);
  if (version) contract.version = version;
  const defaultDeviceType = optionalString(data.defaultDeviceType);
  if (defaultDeviceType) contract.defaultDeviceType = defaultDeviceType;
  if (Array.isArray(data.supportedDeviceTypes)) {
    const supported = data.supportedDeviceTypes.filter((d): d is string => typeof d === 'string' && d.trim() !== '');
    if (supported.length > 0) contract.supportedDeviceTypes = supported;
  }
  return contract;
}
