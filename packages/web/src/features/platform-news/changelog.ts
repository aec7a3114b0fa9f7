/**
 * The changelog dialog's rule (spec 3 §2 header, issue 19): it opens by itself when the
 * last-viewed major version stored for this user is below the latest major version of the
 * bundled CHANGELOG.md; closing it stores that major. A new user (spec 3 §9: within a day of
 * creation) has nothing to catch up on: the latest major is stored without showing the dialog.
 */

/** Spec 3 §9: "A user is treated as new within a day of creation". */
export const NEW_USER_MS = 24 * 60 * 60 * 1000;

/** The major version of the newest released entry (`## [1.2.0] - …`; `Unreleased` is skipped), or undefined. */
export function latestMajor(markdown: string): number | undefined {
  const match = /^##\s+\[?v?(\d+)\.\d+\.\d+[^\]\s]*\]?/m.exec(markdown);
  return match ? Number(match[1]) : undefined;
}

/** Where the last-viewed major is kept: this browser's storage, per user. */
export const changelogStorageKey = (userId: number) => `flotilla.changelogMajor.${userId}`;

/** A stored major: a whole number, or undefined when nothing (valid) is stored. */
export function parseStoredMajor(value: string | null): number | undefined {
  return value !== null && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
}

export type ChangelogDecision = 'show' | 'remember' | 'nothing';

/**
 * 'show' the dialog, silently 'remember' the latest major (a new user), or do 'nothing'.
 * `createdAt` is needed only when nothing is stored (undefined while unknown: 'nothing' yet).
 */
export function changelogDecision(input: { stored: number | undefined; latest: number | undefined; createdAt?: Date | undefined; now: number }): ChangelogDecision {
  const { stored, latest, createdAt, now } = input;
  if (latest === undefined) return 'nothing';
  if (stored !== undefined) return stored < latest ? 'show' : 'nothing';
  if (!createdAt || Number.isNaN(createdAt.getTime())) return 'nothing';
  return now - createdAt.getTime() < NEW_USER_MS ? 'remember' : 'show';
}
