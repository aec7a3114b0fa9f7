/**
 * `balena login --web` (spec 1 §2 `/login/cli/*`): the CLI listens on a local port and opens
 * `/login/cli/{callback}`, the callback URL encoded with encodeURIComponent and then its
 * `%` signs encoded again. Only a localhost or IP-address host is accepted; anything else
 * sends the user to `/`. The dashboard then POSTs the session token to the callback as the
 * form field `token` (application/x-www-form-urlencoded), which the CLI's server reads.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isLocalOrIpHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (IPV4.test(host)) return true;
  // URL keeps IPv6 literals in brackets.
  return /^\[[0-9a-f:.]+\]$/.test(host);
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The callback URL from the raw path segment(s) after `/login/cli/` (still encoded), or
 * null when it is not an http(s) URL on localhost or an IP address.
 */
export function cliCallbackUrl(encoded: string): URL | null {
  let text = encoded;
  // Decode at most twice: once for the CLI's extra `%25`, once for encodeURIComponent.
  for (let i = 0; i < 3; i++) {
    const url = parseHttpUrl(text);
    if (url) return url.username || url.password || !isLocalOrIpHost(url.hostname) ? null : url;
    if (i === 2) break;
    try {
      const next = decodeURIComponent(text);
      if (next === text) return null;
      text = next;
    } catch {
      return null;
    }
  }
  return null;
}
