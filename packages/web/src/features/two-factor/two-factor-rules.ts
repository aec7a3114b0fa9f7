/** Spec 1 §9: the authenticator code submits itself at exactly 6 characters. */
export const TOTP_CODE_LENGTH = 6;

/** The base32 secret in groups of four, easier to type into an authenticator app. */
export function formatPairingCode(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/** Spec 1 §4: recovery codes are laid out two per row. */
export function recoveryCodeRows(codes: readonly string[]): string[][] {
  const rows: string[][] = [];
  for (let i = 0; i < codes.length; i += 2) rows.push(codes.slice(i, i + 2));
  return rows;
}

/** The downloadable text file: a header line, then the codes two per line, as on screen. */
export function recoveryCodesText(codes: readonly string[], header: string): string {
  return [header, '', ...recoveryCodeRows(codes).map((row) => row.join('    ')), ''].join('\n');
}
