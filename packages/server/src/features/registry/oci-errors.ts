/**
 * The registry's errors, in the OCI Distribution error format
 * (`{"errors":[{"code","message","detail"}]}`), never the data API's bare string.
 */
export type OciCode =
  | 'BLOB_UNKNOWN'
  | 'BLOB_UPLOAD_INVALID'
  | 'BLOB_UPLOAD_UNKNOWN'
  | 'DIGEST_INVALID'
  | 'MANIFEST_BLOB_UNKNOWN'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNKNOWN'
  | 'NAME_INVALID'
  | 'NAME_UNKNOWN'
  | 'SIZE_INVALID'
  | 'TAG_INVALID'
  | 'UNAUTHORIZED'
  | 'DENIED'
  | 'UNSUPPORTED'
  | 'RANGE_INVALID'
  | 'PAGINATION_NUMBER_INVALID';

export class OciError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: OciCode,
    message: string,
    readonly detail: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): string {
    return JSON.stringify({ errors: [{ code: this.code, message: this.message, detail: this.detail }] });
  }
}
