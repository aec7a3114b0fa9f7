// The baseline of every benchmark: a bare node:http server. It answers {"hello":"world"}
// to everything except /v7/…, where it answers a canned page of 50 fleets so the
// balena-sdk client can be measured against a server that costs next to nothing.
// Run as a child process (`node --import tsx bench/baseline-server.ts`, PORT from the
// environment), launched like the Flotilla server so both pay the same runtime overhead.
import { createServer } from 'node:http';

const hello = JSON.stringify({ hello: 'world' });
const fleetPage = JSON.stringify({
  d: Array.from({ length: 50 }, (_, i) => ({
    id: i + 1,
    app_name: `bench-fleet-${String(i + 1).padStart(4, '0')}`,
    slug: `bench/bench-fleet-${String(i + 1).padStart(4, '0')}`,
    organization: [{ id: 1, name: 'bench', handle: 'bench' }],
    is_for__device_type: { __id: 1 },
  })),
});
const port = Number(process.env.PORT ?? 0);

const server = createServer((req, res) => {
  const body = req.url?.startsWith('/v7/') ? fleetPage : hello;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
