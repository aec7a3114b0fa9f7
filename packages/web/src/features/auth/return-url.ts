import { paths } from '../../lib/paths';

/** Spec 1 §2: the return URL lives in session storage and is consumed after login. */
const KEY = 'flotilla.returnUrl';
const PUBLIC_ONLY = [paths.login(), paths.signup(), paths.passwordReset()];

/** Only same-origin paths, never a public-only page (that would loop). */
export function isSafeReturnUrl(url: string | null | undefined): url is string {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return false;
  const path = url.split(/[?#]/)[0] ?? '';
  // The CLI and OAuth consent pages need a session: come back to them after login.
  if (path.startsWith(paths.loginCli()) || path.startsWith(paths.loginOAuth(''))) return true;
  return !PUBLIC_ONLY.some((p) => path === p || path.startsWith(`${p}/`));
}

export function rememberReturnUrl(url: string | null | undefined) {
  if (isSafeReturnUrl(url)) sessionStorage.setItem(KEY, url);
}

export function peekReturnUrl(): string | undefined {
  const url = sessionStorage.getItem(KEY);
  return isSafeReturnUrl(url) ? url : undefined;
}

export function clearReturnUrl() {
  sessionStorage.removeItem(KEY);
}
