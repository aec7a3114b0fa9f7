import { LOGO_MAX_BYTES } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Spec 1 §5: an organization logo is a png or jpeg of at most 1,000,000 bytes. It is stored
 * as a data URL, so the dashboard can show it without another request (CSP allows data:
 * images). The type is decided by the file's magic bytes, not by what the client claims.
 */
const SIGNATURES: { type: 'image/png' | 'image/jpeg'; bytes: number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

export const LOGO_TYPE_MESSAGE = 'The logo must be a png or jpeg image';
export const LOGO_SIZE_MESSAGE = `The logo must be at most ${LOGO_MAX_BYTES.toLocaleString('en-US')} bytes`;

export function imageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | undefined {
  return SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b))?.type;
}

/** Validates raw image bytes and returns the data URL to store. */
export function logoDataUrl(bytes: Buffer): string {
  if (bytes.length > LOGO_MAX_BYTES) throw new BadRequestError(LOGO_SIZE_MESSAGE);
  const type = imageType(bytes);
  if (!type) throw new BadRequestError(LOGO_TYPE_MESSAGE);
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** Rule for writes through the data API: `logo_image` is null or a valid png/jpeg data URL. */
export function checkLogoField(body: HookBody<'organization', 'POST' | 'PATCH'>): void {
  if (!('logo_image' in body) || body.logo_image === null) return;
  const value = body.logo_image;
  const m = typeof value === 'string' ? /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]+=*)$/.exec(value) : null;
  if (!m) throw new BadRequestError(LOGO_TYPE_MESSAGE);
  body.logo_image = logoDataUrl(Buffer.from(m[2]!, 'base64'));
}
