import { compareParsedOsVersions, isEsrOsVersion, osLineFromCatalogue, parseOsVersion, type OsLine } from '@flotilla/model';
import type { CatalogueOsVersion } from './os-rules';

/** The OS line badge (spec 2 §3) from the catalogue: its own module, as the details card's first page loads it. */

/** The badge beside the host OS version: its line, or end of life, and whether it is an ESR version. */
export interface OsBadge {
  line: OsLine | 'end-of-life';
  esr: boolean;
}

/**
 * The OS line badge of a reported version: 'end-of-life' when the catalogue's release of that
 * version is in its end-of-life phase, else the model's line from the catalogue
 * (`osLineFromCatalogue`: next, current, sunset, outdated); undefined for a host OS that is
 * not balenaOS or a device type without OS releases.
 */
export function osBadge(osVersion: string | null | undefined, versions: readonly CatalogueOsVersion[]): OsBadge | undefined {
  const current = parseOsVersion(osVersion);
  if (!current) return undefined;
  const exact = versions.find((v) => {
    const p = parseOsVersion(v.raw_version);
    return p !== undefined && compareParsedOsVersions(p, current) === 0;
  });
  const line = exact?.phase === 'end-of-life' ? 'end-of-life' : osLineFromCatalogue(osVersion, versions);
  return line ? { line, esr: isEsrOsVersion(current) } : undefined;
}
