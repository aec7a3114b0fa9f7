import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring links to stored files, as balena hands out pre-signed object-store URLs:
 * balena-sdk fetches an asset's `href` and PUTs upload parts to their URLs *without* the
 * caller's token, so the link itself carries the authorisation. A link is made only for a
 * caller who may read the row (download) or write it (upload parts), names one file or one
 * part, and stops working at `expires`.
 */

/** How long a download link (an asset's `href`) works after the row was read. */
export const DOWNLOAD_LINK_SECONDS = 60 * 60;
/** How long the part URLs of a multipart upload work after beginUpload. */
export const UPLOAD_LINK_SECONDS = 12 * 60 * 60;

export interface SignedQuery {
  expires: number;
  signature: string;
}

export class LinkSigner {
  private readonly key: Buffer;

  constructor(secret: string, private readonly now: () => number = Date.now) {
    // A key of its own, derived from the server secret: a link signature is no JWT signature.
    this.key = createHmac('sha256', secret).update('flotilla-file-links').digest();
  }

  private mac(subject: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${subject}\n${expires}`).digest('base64url');
  }

  sign(subject: string, seconds: number): SignedQuery {
    const expires = Math.floor(this.now() / 1000) + seconds;
    return { expires, signature: this.mac(subject, expires) };
  }

  /** `?expires=…&signature=…` for `subject`. */
  query(subject: string, seconds: number): string {
    const { expires, signature } = this.sign(subject, seconds);
    return `expires=${expires}&signature=${signature}`;
  }

  /** Whether the signature is this server's for `subject` and has not expired. */
  verify(subject: string, expires: unknown, signature: unknown): boolean {
    const e = typeof expires === 'string' && /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
    if (!Number.isFinite(e) || typeof signature !== 'string' || e < this.now() / 1000) return false;
    const want = Buffer.from(this.mac(subject, e));
    const got = Buffer.from(signature);
    return want.length === got.length && timingSafeEqual(want, got);
  }
}
