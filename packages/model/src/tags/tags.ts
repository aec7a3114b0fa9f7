/**
 * Tag key rules (dialect §3 "Key/value tables"; organization membership tags too), shared by the server (which decides) and
 * the dashboard's tag manager (which mirrors): keys in the io.resin. and io.balena.
 * namespaces are reserved, and a key holds no whitespace.
 */
export const TAG_RESOURCES = ['device_tag', 'application_tag', 'release_tag', 'organization_membership_tag'] as const;
export type TagResource = (typeof TAG_RESOURCES)[number];

export const RESERVED_TAG_PREFIXES = ['io.resin.', 'io.balena.'] as const;

export const TAG_KEY_MESSAGES = {
  required: 'Tag key is required.',
  whitespace: 'Tag keys cannot contain whitespace.',
  reserved: (prefix: string) => `Tag keys beginning with ${prefix} are reserved.`,
} as const;

/** The message for a tag key the API refuses, or undefined when the key is acceptable. */
export function tagKeyProblem(key: string | null | undefined): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return TAG_KEY_MESSAGES.required;
  if (/\s/.test(key)) return TAG_KEY_MESSAGES.whitespace;
  const prefix = RESERVED_TAG_PREFIXES.find((p) => key.startsWith(p));
  if (prefix) return TAG_KEY_MESSAGES.reserved(prefix);
  return undefined;
}
