import { describe, expect, it } from 'vitest';
import {
  MAX_COMPOSITION_BYTES,
  MAX_COMPOSITION_SERVICES,
  SUPPORTED_SERVICE_KEYS,
  checkComposition,
  dependsOnOf,
  parsePort,
  parseVolumeEntry,
  restartPolicyOf,
  stringMapOf,
} from './composition.js';

const SUPPORTED = SUPPORTED_SERVICE_KEYS.join(', ');

describe('checkComposition', () => {
  it('accepts every supported key in the shapes compose allows', () => {
    const doc = {
      version: '2.1',
      services: {
        api: {
          build: { context: './api', dockerfile: 'Dockerfile.prod', args: ['V=1'], labels: { a: 'b' }, target: 'prod' },
          environment: ['A=1', 'EMPTY'],
          labels: { 'io.balena.update.strategy': 'kill-then-download' },
          command: 'node server.js',
          entrypoint: ['/bin/sh', '-c'],
          volumes: ['data:/data', 'cache:/cache:ro', { type: 'volume', source: 'data', target: '/more', read_only: true }],
          restart: 'on-failure:3',
          ports: ['8080:80', 9000, '53/udp', '127.0.0.1:2222:22'],
          network_mode: 'host',
          working_dir: '/app',
          user: '1000',
          hostname: 'api-host',
        },
        db: { image: 'postgres:16', depends_on: { api: { condition: 'service_started' } }, environment: { PORT: 5432, DEBUG: true, NONE: null } },
      },
      volumes: { data: {}, cache: null },
    };
    expect(checkComposition(doc, 'source')).toEqual({ problems: [], ignored: [] });
    expect(checkComposition(doc, 'release')).toEqual({ problems: [], ignored: [] });
  });

  it('refuses keys the agent cannot honour, naming the service and key, and reports harmless ones as ignored', () => {
    const r = checkComposition(
      {
        services: {
          main: { build: { context: '.', network: 'host' }, privileged: true, cap_add: ['NET_ADMIN'], healthcheck: { test: 'true' }, 'x-note': 1 },
          other: { image: 'busybox', devices: ['/dev/ttyUSB0'], networks: ['default'] },
        },
        networks: { default: {} },
        secrets: {},
      },
      'source',
    );
    expect(r.problems).toEqual([
      'unsupported top-level key "secrets" (supported: version, services, volumes)',
      `service "main": unsupported key "privileged" (supported: ${SUPPORTED})`,
      `service "main": unsupported key "cap_add" (supported: ${SUPPORTED})`,
      'service "main": unsupported key "build.network" (supported: context, dockerfile, args, labels, target)',
      `service "other": unsupported key "devices" (supported: ${SUPPORTED})`,
    ]);
    expect(r.ignored).toEqual(['"networks"', 'service "main": "healthcheck"', 'service "main": "x-note"', 'service "other": "networks"']);
  });

  it('refuses bind mounts, undeclared volumes, bad mounts and volume driver options', () => {
    const r = checkComposition(
      {
        services: {
          main: {
            image: 'busybox',
            volumes: ['/srv:/srv', './here:/here', 'other:/other', 'data:relative', 'data:/x:zz', '/anonymous', { type: 'bind', source: '/', target: '/host' }],
          },
        },
        volumes: { data: { driver: 'local' } },
      },
      'release',
    );
    expect(r.problems).toEqual([
      'volume "data": driver options are not supported (declare it as "data: {}")',
      'service "main": volume "/srv:/srv" is a bind mount; only named volumes are supported',
      'service "main": volume "./here:/here" is a bind mount; only named volumes are supported',
      'service "main": volume "other" is not declared under the top-level "volumes"',
      'service "main": volume "data:relative" must mount at an absolute path',
      'service "main": volume "data:/x:zz" must be "name:/path" or "name:/path:ro"',
      'service "main": volume "/anonymous" is an anonymous volume; only named volumes are supported',
      'service "main": volume {"type":"bind","source":"/","target":"/host"} is a bind mount; only named volumes are supported',
    ]);
  });

  it('checks values: restart, network_mode, ports, depends_on, command, environment, user', () => {
    const r = checkComposition(
      {
        services: {
          main: {
            image: 'busybox',
            restart: 'sometimes',
            network_mode: 'container:x',
            ports: ['eighty', '9000-9001:9000-9001'],
            user: 1000,
            depends_on: ['ghost', 'main'],
            command: { run: 'x' },
            environment: [1, 'A=b'],
          },
        },
      },
      'source',
    );
    expect(r.problems).toEqual([
      'service "main": command: must be a string or a list of strings',
      'service "main": environment: each entry must be a "KEY=value" string',
      'service "main": restart must be one of no, always, on-failure, unless-stopped (or on-failure:N, N ≤ 10000)',
      'service "main": depends_on names "ghost", which is not a service of this project',
      'service "main": depends_on names the service itself',
      'service "main": network_mode must be one of bridge, host, none',
      'service "main": port "eighty" must look like "8080:80" or "80/udp" (no ranges)',
      'service "main": port "9000-9001:9000-9001" must look like "8080:80" or "80/udp" (no ranges)',
      'service "main": user must be a non-empty string',
    ]);
  });

  it('refuses a depends_on cycle', () => {
    const services = { a: { image: 'x', depends_on: ['b'] }, b: { image: 'x', depends_on: ['c'] }, c: { image: 'x', depends_on: ['a'] } };
    expect(checkComposition({ services }, 'release').problems).toEqual(['depends_on forms a cycle: a → b → c → a']);
  });

  it('a compose file needs build or image per service; a release composition does not (built images, dropped image: keys)', () => {
    const doc = { services: { main: { restart: 'always' }, 'bad name': { image: 'x' } } };
    expect(checkComposition(doc, 'source').problems).toEqual([
      'service "main": needs "build" or "image"',
      'service "bad name": invalid service name (letters, digits, "_", "." and "-", at most 63 characters)',
    ]);
    expect(checkComposition(doc, 'release').problems).toEqual([
      'service "bad name": invalid service name (letters, digits, "_", "." and "-", at most 63 characters)',
    ]);
  });

  it('a release composition may be empty ({} as balena-sdk clients send); a compose file may not', () => {
    expect(checkComposition({}, 'release').problems).toEqual([]);
    expect(checkComposition({ version: '2.1', services: {} }, 'release').problems).toEqual([]);
    expect(checkComposition({ version: '2' }, 'source').problems).toEqual(['"services" must name at least one service']);
    expect(checkComposition('not a composition', 'release').problems).toEqual(['the composition must be an object with "services"']);
    expect(checkComposition(['a'], 'source').problems).toEqual(['the compose file must be a map with "services"']);
    expect(checkComposition(null, 'release').problems).toEqual(['the composition must be an object with "services"']);
  });

  it('bounds the number of services and the size', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_COMPOSITION_SERVICES + 1 }, (_, i) => [`s${i}`, { image: 'x' }]));
    expect(checkComposition({ services: many }, 'release').problems).toEqual([`at most ${MAX_COMPOSITION_SERVICES} services are supported (this one has 101)`]);
    const big = { services: { main: { image: 'x', labels: { big: 'x'.repeat(MAX_COMPOSITION_BYTES) } } } };
    expect(checkComposition(big, 'release').problems).toEqual([`the composition is larger than ${MAX_COMPOSITION_BYTES} bytes`]);
  });
});

describe('normalisation', () => {
  it('restart policies: balena default always, on-failure with and without a retry count', () => {
    expect(restartPolicyOf(undefined)).toEqual({ name: 'always', maximumRetryCount: 0 });
    expect(restartPolicyOf('no')).toEqual({ name: 'no', maximumRetryCount: 0 });
    expect(restartPolicyOf('on-failure')).toEqual({ name: 'on-failure', maximumRetryCount: 0 });
    expect(restartPolicyOf('on-failure:5')).toEqual({ name: 'on-failure', maximumRetryCount: 5 });
    expect(restartPolicyOf('on-failure:99999')).toBeUndefined();
    expect(restartPolicyOf('always:3')).toBeUndefined();
  });

  it('ports, volumes, maps and depends_on', () => {
    expect(parsePort(9000)).toEqual({ container: '9000/tcp' });
    expect(parsePort('8080:80')).toEqual({ container: '80/tcp', hostPort: '8080' });
    expect(parsePort('127.0.0.1:53:53/udp')).toEqual({ container: '53/udp', hostIp: '127.0.0.1', hostPort: '53' });
    expect(parsePort('1-2')).toBeUndefined();
    expect(parseVolumeEntry('data:/data:ro')).toEqual({ source: 'data', target: '/data', readOnly: true });
    expect(parseVolumeEntry({ source: 'data', target: '/d' })).toEqual({ source: 'data', target: '/d', readOnly: false });
    expect(stringMapOf(['A=1', 'B=x=y', 'C'])).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(stringMapOf({ A: 1, B: null })).toEqual({ A: '1', B: '' });
    expect(dependsOnOf({ a: {}, b: {} })).toEqual(['a', 'b']);
  });
});
