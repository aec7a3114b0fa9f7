/*
 * Micro-bench of the session-token path every authenticated request takes (issue 13 item 7):
 * verifyJwt of one valid token (and JwtVerifier, which remembers verified tokens: what the
 * authenticator uses), sequentially (the latency a request pays) and 50 at a time
 * (as 50 autocannon connections would), plus signJwt. Run from the repository root:
 *   node --import tsx packages/server/scripts/jwt-bench.ts
 * Prints operations per second; compare runs on the same machine at the same load.
 */
import { JwtVerifier, signJwt, verifyJwt } from '../src/infra/auth/jwt.js';

const SECRET = 'a-secret-of-the-length-the-server-generates-0123456789';
const claims = { id: 42, authTime: Date.now(), actualUser: 42, permissions: ['resin.device.read', 'resin.application.read'] };
const DURATION_MS = Number(process.env.JWT_BENCH_MS ?? 2000);

async function measure(name: string, op: () => unknown, concurrency = 1): Promise<void> {
  for (let i = 0; i < 2000; i++) await op(); // warm-up
  let count = 0;
  const end = performance.now() + DURATION_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await op();
        count++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(`${name.padEnd(34)} ${Math.round(count / seconds).toLocaleString('en').padStart(10)} ops/s  ${((seconds * 1e6) / count).toFixed(2)} µs/op`);
}

const token = await signJwt(claims, SECRET, 3600);
await measure('verifyJwt (sequential)', () => verifyJwt(token, SECRET));
await measure('verifyJwt (50 concurrent)', () => verifyJwt(token, SECRET), 50);
const verifier = new JwtVerifier(SECRET);
await measure('JwtVerifier.verify (sequential)', () => verifier.verify(token));
await measure('JwtVerifier.verify (50 concurrent)', () => verifier.verify(token), 50);
await measure('signJwt (sequential)', () => signJwt(claims, SECRET, 3600));
