/**
 * Host OS and supervisor version strings (issue 17). A balenaOS version is three numbers,
 * an optional prerelease, an optional `+revN` revision and an optional variant
 * (`2.88.4+rev1.prod`, `balenaOS 6.0.10`, `Resin OS 2.3.0+rev1`, `2024.10.1`). Versions order
 * by the three numbers, then a release before its prereleases, then the revision (no
 * revision counts as rev0). The variant does not order.
 */
export interface OsVersion {
  major: number;
  minor: number;
  patch: number;
  prerelease?: string;
  revision: number;
  variant?: 'prod' | 'dev';
}

const VERSION = /^(?:(?:balena\s?OS|resin\s?OS)\s+)?v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?(?:\.(prod|dev))?$/i;

/** The parts of a version string, or undefined when it is not a balenaOS/supervisor version (`Linux 6.8.0-45-generic`). */
export function parseOsVersion(text: string | null | undefined): OsVersion | undefined {
  const m = text?.trim().match(VERSION);
  if (!m) return undefined;
  const build = (m[5] ?? '').split('.').filter(Boolean);
  const rev = build.map((b) => b.match(/^rev(\d+)$/)).find(Boolean);
  const variant = (m[6] ?? build.find((b) => b === 'prod' || b === 'dev')) as OsVersion['variant'];
  if (m[4] !== undefined && !/^[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*$/.test(m[4])) return undefined;
  if (build.some((b) => !/^(rev\d+|prod|dev)$/.test(b))) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    ...(m[4] !== undefined ? { prerelease: m[4] } : {}),
    revision: rev ? Number(rev[1]) : 0,
    ...(variant ? { variant: variant.toLowerCase() as 'prod' | 'dev' } : {}),
  };
}

/** Orders two parsed versions (negative: a is older). */
export function compareParsedOsVersions(a: OsVersion, b: OsVersion): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core) return Math.sign(core);
  if (a.prerelease !== b.prerelease) {
    if (a.prerelease === undefined) return 1;
    if (b.prerelease === undefined) return -1;
    return a.prerelease < b.prerelease ? -1 : 1;
  }
  return Math.sign(a.revision - b.revision);
}

/** Orders two version strings; throws on one that is not a version. */
export function compareOsVersions(a: string, b: string): number {
  const pa = parseOsVersion(a);
  const pb = parseOsVersion(b);
  if (!pa || !pb) throw new Error(`Not an OS version: ${pa ? b : a}`);
  return compareParsedOsVersions(pa, pb);
}

/** `x.y.z` of a version string, without revision or variant. */
export function osVersionCore(text: string): string | undefined {
  const v = parseOsVersion(text);
  return v && `${v.major}.${v.minor}.${v.patch}${v.prerelease ? `-${v.prerelease}` : ''}`;
}

/** ESR versions are recognised by a first number above 2000 (spec 2 §4; e.g. 2024.10.1). */
export const ESR_MAJOR_ABOVE = 2000;

/** Whether a parsed or textual version is on an ESR line. */
export function isEsrOsVersion(v: OsVersion | string | null | undefined): boolean {
  const p = typeof v === 'string' || v == null ? parseOsVersion(v) : v;
  return p !== undefined && p.major > ESR_MAJOR_ABOVE;
}
