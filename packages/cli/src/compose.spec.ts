import { describe, expect, it } from 'vitest';
import { ComposeError, MAX_COMPOSE_BYTES, parseCompose, singleDockerfileProject } from './compose.js';

/** The problems parseCompose reports for a document (it must refuse it). */
function problems(text: string): string[] {
  try {
    parseCompose(text);
  } catch (err) {
    if (err instanceof ComposeError) return err.problems;
    throw err;
  }
  throw new Error('expected the compose file to be refused');
}

describe('parseCompose', () => {
  it('reads build and image services and normalises the composition', () => {
    const project = parseCompose(`
version: '2.4'
services:
  api:
    build:
      context: ./api
      dockerfile: Dockerfile.prod
      args: [VERSION=1]
      labels: { team: core }
    environment: [A=1, B=two=2, EMPTY]
    labels:
      io.balena.update.strategy: kill-then-download
    command: node server.js
    entrypoint: [/bin/sh, -c]
    volumes: [data:/data, 'cache:/cache:ro']
    restart: unless-stopped
    ports: ['8080:80', 9000, '53/udp', '127.0.0.1:2222:22']
    network_mode: host
    working_dir: /app
    user: '1000'
    hostname: api-host
  db:
    image: postgres:16
    depends_on: { api: { condition: service_started } }
    environment: { PORT: 5432, DEBUG: true, NONE: null }
volumes:
  data: {}
  cache:
`);
    expect(project.services.map((s) => s.name)).toEqual(['api', 'db']);
    const [api, db] = project.services;
    expect(api!.build).toEqual({ context: './api', dockerfile: 'Dockerfile.prod', args: { VERSION: '1' }, labels: { team: 'core' } });
    expect(api!.image).toBeUndefined();
    expect(db!.image).toBe('postgres:16');
    expect(db!.build).toBeUndefined();
    expect(project.composition).toEqual({
      version: '2.1',
      services: {
        api: {
          build: { context: './api', dockerfile: 'Dockerfile.prod' },
          environment: { A: '1', B: 'two=2', EMPTY: '' },
          labels: { 'io.balena.update.strategy': 'kill-then-download' },
          command: 'node server.js',
          entrypoint: ['/bin/sh', '-c'],
          volumes: ['data:/data', 'cache:/cache:ro'],
          restart: 'unless-stopped',
          ports: ['8080:80', '9000', '53/udp', '127.0.0.1:2222:22'],
          network_mode: 'host',
          working_dir: '/app',
          user: '1000',
          hostname: 'api-host',
        },
        db: { depends_on: ['api'], environment: { PORT: '5432', DEBUG: 'true', NONE: '' } },
      },
      volumes: { data: {}, cache: {} },
    });
  });

  it('takes a string build as the context with the default Dockerfile', () => {
    expect(parseCompose('services:\n  main:\n    build: ./src\n').services[0]!.build).toEqual({ context: './src', dockerfile: 'Dockerfile', args: {}, labels: {} });
  });

  it('a lone Dockerfile is one service "main" built from the project directory', () => {
    const project = singleDockerfileProject();
    expect(project.services).toEqual([{ name: 'main', build: { context: '.', dockerfile: 'Dockerfile', args: {}, labels: {} }, composition: { build: { context: '.', dockerfile: 'Dockerfile' } } }]);
  });

  it('names the service and key of every unsupported key', () => {
    expect(
      problems(`
services:
  main:
    build: { context: ., network: host }
    privileged: true
    cap_add: [NET_ADMIN]
  other:
    image: busybox
    devices: [/dev/ttyUSB0]
configs:
  default: {}
`),
    ).toEqual([
      'unsupported top-level key "configs" (supported: version, services, volumes)',
      'service "main": unsupported key "privileged" (supported: build, image, command, entrypoint, environment, labels, volumes, restart, depends_on, network_mode, ports, working_dir, user, hostname)',
      'service "main": unsupported key "cap_add" (supported: build, image, command, entrypoint, environment, labels, volumes, restart, depends_on, network_mode, ports, working_dir, user, hostname)',
      'service "main": unsupported key "build.network" (supported: context, dockerfile, args, labels, target)',
      'service "other": unsupported key "devices" (supported: build, image, command, entrypoint, environment, labels, volumes, restart, depends_on, network_mode, ports, working_dir, user, hostname)',
    ]);
  });

  it('accepts keys the agent ignores harmlessly, reports them and leaves them out of the release', () => {
    const project = parseCompose(`
services:
  main:
    build: .
    healthcheck: { test: [CMD, 'true'] }
    networks: [default]
    restart: on-failure:3
networks:
  default: {}
`);
    expect(project.ignored).toEqual(['"networks"', 'service "main": "healthcheck"', 'service "main": "networks"']);
    expect(project.composition).toEqual({ version: '2.1', services: { main: { build: { context: '.', dockerfile: 'Dockerfile' }, restart: 'on-failure:3' } } });
  });

  it('refuses bind mounts, undeclared volumes and volume driver options', () => {
    expect(
      problems(`
services:
  main:
    image: busybox
    volumes: [/srv:/srv, ./here:/here, other:/other, 'data:relative', 'data:/x:zz']
volumes:
  data: { driver: local }
`),
    ).toEqual([
      'volume "data": driver options are not supported (declare it as "data: {}")',
      'service "main": volume "/srv:/srv" is a bind mount; only named volumes are supported',
      'service "main": volume "./here:/here" is a bind mount; only named volumes are supported',
      'service "main": volume "other" is not declared under the top-level "volumes"',
      'service "main": volume "data:relative" must mount at an absolute path',
      'service "main": volume "data:/x:zz" must be "name:/path" or "name:/path:ro"',
    ]);
  });

  it('checks values: restart, network_mode, ports, depends_on, command, environment, user', () => {
    expect(
      problems(`
services:
  main:
    image: busybox
    restart: sometimes
    network_mode: 'container:x'
    ports: ['eighty', '9000-9001:9000-9001']
    user: 1000
    depends_on: [ghost, main]
    command: { run: x }
    environment: [1, 'A=b']
`),
    ).toEqual([
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
    expect(problems('services:\n  a: { image: x, depends_on: [b] }\n  b: { image: x, depends_on: [c] }\n  c: { image: x, depends_on: [a] }\n')).toEqual([
      'depends_on forms a cycle: a → b → c → a',
    ]);
  });

  it('refuses a service without build or image, and invalid service names', () => {
    expect(problems('services:\n  main:\n    restart: always\n  "bad name":\n    image: x\n')).toEqual([
      'service "main": needs "build" or "image"',
      'service "bad name": invalid service name (letters, digits, "_", "." and "-", at most 63 characters)',
    ]);
  });

  it('refuses documents that are not compose files', () => {
    expect(problems('services: [')[0]).toMatch(/^the compose file is not valid YAML/);
    expect(problems('- a\n- b\n')).toEqual(['the compose file must be a map with "services"']);
    expect(problems('version: "2"\n')).toEqual(['"services" must name at least one service']);
    expect(problems('services: {}\n')).toEqual(['"services" must name at least one service']);
    expect(problems(`services:\n  main:\n    image: x\n    labels:\n      big: "${'x'.repeat(MAX_COMPOSE_BYTES)}"\n`)).toEqual([
      `the compose file is larger than ${MAX_COMPOSE_BYTES} bytes`,
    ]);
  });

  it('bounds YAML alias expansion (a "billion laughs" document is refused)', () => {
    const doc = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) doc.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    doc.push('services: { main: { image: x } }');
    expect(problems(doc.join('\n'))[0]).toMatch(/^the compose file is not valid YAML/);
  });
});
