import { getSdk } from 'balena-sdk';
import { percentile, sleep } from './stats.js';

export interface SdkLoadOptions {
  apiUrl: string;
  /** A session JWT; by default an unsigned one, for servers that do not check it (the baseline). */
  token?: string;
  concurrency: number;
  warmupSeconds: number;
  measureSeconds: number;
}

export interface SdkLoadResult {
  /** Completed calls per second over the measured phase. */
  rps: number;
  calls: number;
  errors: number;
  firstError?: string;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Rows in one answer (sanity check: the list is really there). */
  rowsPerCall: number;
  durationSeconds: number;
}

/**
 * The fleet list through the published balena-sdk, as the dashboard fetches it:
 * `concurrency` promises each calling `sdk.pine.get` in a loop.
 */
export async function sdkLoad(opts: SdkLoadOptions): Promise<SdkLoadResult> {
  const sdk = getSdk({ apiUrl: opts.apiUrl, dataDirectory: false });
  await sdk.auth.loginWithToken(opts.token ?? unsignedJwt());
  const list = () =>
    sdk.pine.get({ resource: 'application', options: { $expand: 'organization', $top: 50 } });

  const rowsPerCall = (await list()).length;
  if (opts.warmupSeconds > 0) await loop(list, opts.concurrency, opts.warmupSeconds);
  return { ...(await loop(list, opts.concurrency, opts.measureSeconds)), rowsPerCall };
}

async function loop(
  call: () => Promise<unknown>,
  concurrency: number,
  seconds: number,
): Promise<Omit<SdkLoadResult, 'rowsPerCall'>> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;

  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await call();
        latencies.push(performance.now() - t0);
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
        await sleep(10); // A failing server must not turn this into a busy loop.
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const durationSeconds = (performance.now() - started) / 1000;
  return {
    rps: latencies.length / durationSeconds,
    calls: latencies.length,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    durationSeconds,
  };
}

/** A JWT-shaped token valid for an hour, signed by nobody: the SDK only decodes it. */
function unsignedJwt(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = { id: 1, authTime: now * 1000, iat: now, exp: now + 3600 };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.unsigned`;
}
