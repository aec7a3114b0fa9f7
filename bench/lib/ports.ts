import { createServer } from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1 (bound to port 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      if (address === null || typeof address === 'string') {
        srv.close();
        reject(new Error('could not read the port of a listening socket'));
        return;
      }
      srv.close(() => resolve(address.port));
    });
  });
}
