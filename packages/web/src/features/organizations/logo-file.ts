import { LOGO_MAX_BYTES } from '@flotilla/model';

/** Spec 1 §5: an organization logo is a png or jpeg of at most 1,000,000 bytes. */
export const LOGO_ACCEPT = 'image/png,image/jpeg';
const LOGO_TYPES = new Set(['image/png', 'image/jpeg']);

export type LogoFileProblem = 'logo_wrong_type' | 'logo_too_large';

/** Why a chosen file cannot be the logo, or undefined (the server checks the bytes again). */
export function logoFileProblem(file: { type: string; size: number }): LogoFileProblem | undefined {
  if (!LOGO_TYPES.has(file.type)) return 'logo_wrong_type';
  if (file.size > LOGO_MAX_BYTES) return 'logo_too_large';
  return undefined;
}

/**
 * The stored logo as an <img> source: only png/jpeg data URLs are shown. Our server stores
 * `logo_image` as a data URL string; balena-sdk types it as a web resource ({href}), so both
 * shapes are read.
 */
export function logoSrc(logoImage: unknown): string | undefined {
  const value =
    typeof logoImage === 'object' && logoImage !== null && 'href' in logoImage ? (logoImage as { href: unknown }).href : logoImage;
  return typeof value === 'string' && /^data:image\/(png|jpeg);base64,/.test(value) ? value : undefined;
}
