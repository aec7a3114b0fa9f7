import { DEVICE_TYPES } from './device-types.js';
import { OS_VARIANTS, type OsReleasePhase, type OsVariant } from './os-catalogue.js';
import { compareParsedOsVersions, isEsrOsVersion, parseOsVersion, type OsVersion } from './os-versions.js';

/**
 * Publishing and withdrawing host OS releases (issue 17): the rules platform administrators'
 * `/admin` publish form and the server's `POST /admin/v1/os-releases` share. A published
 * release joins the device type's host fleet (the ESR fleet for a first number above 2000)
 * as the seeded catalogue's do: successful, final, `raw_version` `x.y.z+revN.<variant>`.
 */
export const OS_RELEASE_PHASES: readonly OsReleasePhase[] = ['next', 'current', 'sunset', 'end-of-life'];

/** Bounds of the free-text fields (characters). */
export const OS_RELEASE_TEXT_MAX = 2000;

export const OS_PUBLISH_MESSAGES = {
  unknownDeviceType: 'Unknown device type',
  discontinued: 'This device type is discontinued: it gets no new OS releases',
  badVersion: 'Enter a balenaOS version as x.y.z or x.y.z+revN (no prerelease, no variant)',
  badVariant: 'The variant must be prod or dev',
  badPhase: 'The phase must be next, current, sunset or end-of-life',
  esrPhase: 'An ESR release has no phase: its line comes from the ESR fleet tags',
  esrWithoutBase: 'An ESR release needs the balenaOS version it is based on',
  badBase: 'The base must be a balenaOS version below 2000, as x.y.z or x.y.z+revN',
  baseOnDefault: 'Only an ESR release has a base version',
  tooLong: `Known issues and release notes are at most ${OS_RELEASE_TEXT_MAX} characters`,
  exists: 'This OS version and variant are already published for this device type',
} as const;

export interface OsReleasePublishInput {
  deviceType: string;
  version: string;
  variant: string;
  phase?: string | null;
  /** The balenaOS version an ESR release is built on (its `meta-balena-base` tag). */
  basedOn?: string | null;
  knownIssues?: string | null;
  releaseNotes?: string | null;
}

/** A checked publish request: the values the release is made of. */
export interface OsReleaseToPublish {
  deviceType: string;
  esr: boolean;
  semver: string;
  revision: number;
  variant: OsVariant;
  phase: OsReleasePhase | null;
  basedOn: string;
  knownIssues: string | null;
  note: string | null;
}

const parseFinal = (text: string): OsVersion | undefined => {
  const v = parseOsVersion(text);
  // A plain number triple with an optional +revN: no prefix, prerelease or variant.
  return v && /^\d+\.\d+\.\d+(\+rev\d+)?$/.test(text.trim()) ? v : undefined;
};
const blank = (s: string | null | undefined) => s == null || s.trim() === '';

/**
 * The first reason a publish request is refused, or the release it makes. `existing` are the
 * `raw_version`s the type's host fleet for that line already has (withdrawn ones included).
 * The device type is checked against the model's catalogue (the server seeds exactly it).
 */
export function checkOsReleasePublish(
  input: OsReleasePublishInput,
  existing: readonly string[] = [],
): { error: string; release?: never } | { error?: never; release: OsReleaseToPublish } {
  const dt = DEVICE_TYPES.find((d) => d.slug === input.deviceType);
  if (!dt) return { error: OS_PUBLISH_MESSAGES.unknownDeviceType };
  if (dt.state === 'discontinued') return { error: OS_PUBLISH_MESSAGES.discontinued };
  const v = parseFinal(input.version ?? '');
  if (!v) return { error: OS_PUBLISH_MESSAGES.badVersion };
  if (!(OS_VARIANTS as readonly string[]).includes(input.variant)) return { error: OS_PUBLISH_MESSAGES.badVariant };
  const esr = isEsrOsVersion(v);
  const phase = blank(input.phase) ? null : input.phase!;
  if (phase !== null && esr) return { error: OS_PUBLISH_MESSAGES.esrPhase };
  if (phase !== null && !(OS_RELEASE_PHASES as readonly string[]).includes(phase)) return { error: OS_PUBLISH_MESSAGES.badPhase };
  const semver = `${v.major}.${v.minor}.${v.patch}`;
  let basedOn = semver;
  if (esr) {
    if (blank(input.basedOn)) return { error: OS_PUBLISH_MESSAGES.esrWithoutBase };
    const base = parseFinal(input.basedOn!);
    if (!base || isEsrOsVersion(base)) return { error: OS_PUBLISH_MESSAGES.badBase };
    basedOn = `${base.major}.${base.minor}.${base.patch}`;
  } else if (!blank(input.basedOn)) {
    return { error: OS_PUBLISH_MESSAGES.baseOnDefault };
  }
  if ((input.knownIssues?.length ?? 0) > OS_RELEASE_TEXT_MAX || (input.releaseNotes?.length ?? 0) > OS_RELEASE_TEXT_MAX) return { error: OS_PUBLISH_MESSAGES.tooLong };
  const variant = input.variant as OsVariant;
  const taken = existing.some((raw) => {
    const e = parseOsVersion(raw);
    return e !== undefined && compareParsedOsVersions(e, v) === 0 && e.variant === variant;
  });
  if (taken) return { error: OS_PUBLISH_MESSAGES.exists };
  return {
    release: {
      deviceType: dt.slug,
      esr,
      semver,
      revision: v.revision,
      variant,
      phase: phase as OsReleasePhase | null,
      basedOn,
      knownIssues: blank(input.knownIssues) ? null : input.knownIssues!.trim(),
      note: blank(input.releaseNotes) ? null : input.releaseNotes!.trim(),
    },
  };
}
