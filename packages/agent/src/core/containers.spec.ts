import { describe, expect, it } from 'vitest';
import {
  CompositionError,
  LABEL,
  containerSpec,
  imagesToPrefetch,
  planApply,
  serviceStatusOf,
  shellSplit,
  startOrder,
  type ApplyTarget,
  type ContainerSpec,
  type CurrentContainer,
} from './containers.js';
import type { TargetService } from './target-state.js';

const UUID = 'aaaabbbbccccddddeeeeffff00001111';

function target(services: TargetService[], releaseId = 7, commit = 'c0ffee'): ApplyTarget {
  return { uuid: UUID, appId: 3, appUuid: 'app-uuid', appName: 'Fleet', deviceType: 'generic-amd64', release: { commit, id: releaseId, services } };
}

const svc = (name: string, over: Partial<TargetService> = {}): TargetService => ({
  name,
  id: name.length,
  imageId: 100 + name.length,
  image: `reg.test/v2/${name}`,
  environment: {},
  labels: {},
  ...over,
});

const running = (spec: ContainerSpec, imageId: string, over: Partial<CurrentContainer> = {}): CurrentContainer => ({
  id: `id-${spec.service}`,
  name: spec.name,
  service: spec.service,
  configHash: spec.configHash,
  imageId,
  image: spec.image,
  state: 'running',
  ...over,
});

describe('containerSpec', () => {
  it('maps the composition onto a container: command, entrypoint, env over the balena defaults, labels, volumes, ports, restart', () => {
    const main = svc('main', {
      environment: { GREETING: 'hi', BALENA_APP_NAME: 'override' },
      labels: { 'com.example': 'x' },
      composition: {
        command: 'sh -c "echo \\"a b\\"; sleep 1"',
        entrypoint: ['/bin/busybox'],
        volumes: ['data:/data', { type: 'volume', source: 'cache', target: '/cache', read_only: true }],
        ports: ['8080:80', '53/udp', '127.0.0.1:9000:9000'],
        network_mode: 'host',
        depends_on: ['db'],
      },
    });
    const spec = containerSpec(target([main]), main);
    expect(spec.cmd).toEqual(['sh', '-c', 'echo "a b"; sleep 1']);
    expect(spec.entrypoint).toEqual(['/bin/busybox']);
    expect(spec.env).toContain('GREETING=hi');
    expect(spec.env).toContain('BALENA_APP_NAME=override');
    expect(spec.env).toContain(`BALENA_DEVICE_UUID=${UUID}`);
    expect(spec.env).toContain('BALENA_SERVICE_NAME=main');
    expect(spec.labels).toMatchObject({
      'com.example': 'x',
      [LABEL.deviceUuid]: UUID,
      [LABEL.appUuid]: 'app-uuid',
      [LABEL.release]: 'c0ffee',
      [LABEL.serviceName]: 'main',
      [LABEL.imageId]: '104',
      'io.balena.service-name': 'main',
    });
    expect(spec.volumes).toEqual([
      { name: '3_data_aaaabbbbcccc', volume: 'data', target: '/data', readOnly: false },
      { name: '3_cache_aaaabbbbcccc', volume: 'cache', target: '/cache', readOnly: true },
    ]);
    expect(spec.ports).toEqual([
      { container: '80/tcp', hostPort: '8080' },
      { container: '53/udp' },
      { container: '9000/tcp', hostIp: '127.0.0.1', hostPort: '9000' },
    ]);
    expect(spec.restart).toEqual({ name: 'always', maximumRetryCount: 0 });
    expect(spec.networkMode).toBe('host');
    expect(spec.network).toBeUndefined();
    expect(spec.dependsOn).toEqual(['db']);
    expect(spec.name).toBe('main_104_7_aaaabbbbcccc');
    expect(spec.strategy).toBe('download-then-kill');
  });

  it('keeps the config hash across releases and image ids, and changes it with the config', () => {
    const a = containerSpec(target([], 7, 'one'), svc('main', { environment: { A: '1' } }));
    const b = containerSpec(target([], 8, 'two'), svc('main', { environment: { A: '1' }, imageId: 999, image: 'reg.test/v2/other' }));
    const c = containerSpec(target([], 8, 'two'), svc('main', { environment: { A: '2' } }));
    expect(b.configHash).toBe(a.configHash);
    expect(c.configHash).not.toBe(a.configHash);
  });

  it('reads the update strategy label (balena or flotilla)', () => {
    expect(containerSpec(target([]), svc('a', { labels: { 'io.balena.update.strategy': 'kill-then-download' } })).strategy).toBe('kill-then-download');
    expect(containerSpec(target([]), svc('a', { labels: { 'io.flotilla.update.strategy': 'kill-then-download' } })).strategy).toBe('kill-then-download');
    expect(containerSpec(target([]), svc('a', { labels: { 'io.balena.update.strategy': 'hand-over' } })).strategy).toBe('download-then-kill');
  });

  it("puts a service on the device's fleet network unless network_mode says otherwise; on-failure keeps its retry count", () => {
    const plain = containerSpec(target([]), svc('a', { composition: { restart: 'on-failure:4' } }));
    expect(plain.network).toBe('3_default_aaaabbbbcccc');
    expect(plain.networkMode).toBeUndefined();
    expect(plain.restart).toEqual({ name: 'on-failure', maximumRetryCount: 4 });
    const bridge = containerSpec(target([]), svc('a', { composition: { network_mode: 'bridge' } }));
    expect(bridge).toMatchObject({ networkMode: 'bridge' });
    expect(bridge.network).toBeUndefined();
    expect(bridge.configHash).not.toBe(plain.configHash);
  });

  it('refuses bind mounts, anonymous volumes, bad ports, network modes and unknown restart policies', () => {
    expect(() => containerSpec(target([]), svc('a', { composition: { volumes: ['/data'] } }))).toThrow(/anonymous volume/);
    expect(() => containerSpec(target([]), svc('a', { composition: { network_mode: 'container:x' } }))).toThrow(/network_mode/);
    expect(() => containerSpec(target([]), svc('a', { composition: { volumes: ['/etc:/host-etc'] } }))).toThrow(CompositionError);
    expect(() => containerSpec(target([]), svc('a', { composition: { ports: ['http'] } }))).toThrow(/unsupported port/);
    expect(() => containerSpec(target([]), svc('a', { composition: { restart: 'sometimes' } }))).toThrow(/restart policy/);
  });
});

describe('shellSplit', () => {
  it('splits like a shell: quotes and backslashes', () => {
    expect(shellSplit(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    expect(shellSplit('  ')).toEqual([]);
    expect(shellSplit(`''`)).toEqual(['']);
    expect(() => shellSplit('"open')).toThrow(/unterminated/);
  });
});

describe('startOrder', () => {
  it('starts dependencies first and survives cycles', () => {
    const t = target([]);
    const web = containerSpec(t, svc('web', { composition: { depends_on: ['api'] } }));
    const api = containerSpec(t, svc('api', { composition: { depends_on: { db: { condition: 'service_started' } } } }));
    const db = containerSpec(t, svc('db'));
    expect(startOrder([web, api, db]).map((s) => s.service)).toEqual(['db', 'api', 'web']);
    const x = containerSpec(t, svc('x', { composition: { depends_on: ['y'] } }));
    const y = containerSpec(t, svc('y', { composition: { depends_on: ['x'] } }));
    expect(startOrder([x, y]).map((s) => s.service).sort()).toEqual(['x', 'y']);
  });
});

describe('planApply', () => {
  const t1 = target([svc('main'), svc('worker')], 7, 'one');
  const [main1, worker1] = t1.release.services.map((s) => containerSpec(t1, s)) as [ContainerSpec, ContainerSpec];

  it('creates every service on an empty device, pulling nothing it has', () => {
    const plan = planApply([], [main1, worker1], (i) => (i === main1.image ? 'sha256:m' : undefined), []);
    expect(plan.steps.map((s) => s.kind)).toEqual(['start', 'pull', 'start']);
    expect(plan.disruptive).toBe(false);
  });

  it('leaves an unchanged service running (same config, same image content under a new name) and replaces the changed one', () => {
    const t2 = target([svc('main', { imageId: 201, image: 'reg.test/v2/main-2' }), svc('worker', { imageId: 202, image: 'reg.test/v2/worker-2' })], 8, 'two');
    const [main2, worker2] = t2.release.services.map((s) => containerSpec(t2, s)) as [ContainerSpec, ContainerSpec];
    const current = [running(main1, 'sha256:m1'), running(worker1, 'sha256:w1')];
    const ids: Record<string, string> = { [main2.image]: 'sha256:m1', [worker2.image]: 'sha256:w2' };
    const plan = planApply(current, [main2, worker2], (i) => ids[i], ['3_data_aaaabbbbcccc']);
    expect(plan.keep).toEqual(['main']);
    expect(plan.steps).toEqual([
      { kind: 'rename', container: current[0], name: main2.name },
      { kind: 'kill', container: current[1] },
      { kind: 'start', spec: worker2 },
      { kind: 'remove-image', imageId: 'w1', image: worker1.image },
      { kind: 'remove-volume', name: '3_data_aaaabbbbcccc' },
    ]);
    expect(plan.disruptive).toBe(true);
  });

  it("recreates only the service whose environment changed (a variable), keeping the other's container", () => {
    const t1 = target([svc('main', { environment: { GREETING: 'a' } }), svc('worker', { environment: { GREETING: 'a' } })]);
    const [m1, w1] = t1.release.services.map((s) => containerSpec(t1, s)) as [ContainerSpec, ContainerSpec];
    // Same release: a device-service variable changes main's environment only.
    const t2 = target([svc('main', { environment: { GREETING: 'b' } }), svc('worker', { environment: { GREETING: 'a' } })]);
    const [m2, w2] = t2.release.services.map((s) => containerSpec(t2, s)) as [ContainerSpec, ContainerSpec];
    expect(m2.env).toContain('GREETING=b');
    expect(w2.configHash).toBe(w1.configHash);
    expect(m2.configHash).not.toBe(m1.configHash);
    const current = [running(m1, 'sha256:m'), running(w1, 'sha256:w')];
    const ids: Record<string, string> = { [m2.image]: 'sha256:m', [w2.image]: 'sha256:w' };
    const plan = planApply(current, [m2, w2], (i) => ids[i], []);
    expect(plan.keep).toEqual(['worker']);
    expect(plan.steps).toEqual([
      { kind: 'kill', container: current[0] },
      { kind: 'start', spec: m2 },
    ]);
    // The order of the variables does not matter (the server may list them in any order).
    const t3 = target([svc('main', { environment: { B: '2', A: '1' } })]);
    const t4 = target([svc('main', { environment: { A: '1', B: '2' } })]);
    expect(containerSpec(t3, t3.release.services[0]!).configHash).toBe(containerSpec(t4, t4.release.services[0]!).configHash);
  });

  it('kill-then-download: the old container goes before the new image is pulled', () => {
    const t2 = target([svc('main', { image: 'reg.test/v2/main-2', labels: { 'io.balena.update.strategy': 'kill-then-download' } })], 8, 'two');
    const main2 = containerSpec(t2, t2.release.services[0]!);
    const current = [running(main1, 'sha256:m1')];
    expect(imagesToPrefetch([main2], () => false)).toEqual([]);
    const plan = planApply(current, [main2], () => undefined, []);
    expect(plan.steps.map((s) => s.kind)).toEqual(['kill', 'pull', 'start', 'remove-image']);
  });

  it('download-then-kill prefetches new images only', () => {
    expect(imagesToPrefetch([main1, worker1], (i) => i === main1.image)).toEqual([{ service: 'worker', image: worker1.image }]);
  });

  it('removes containers of services no longer in the target and other devices volumes are never listed', () => {
    const current = [running(main1, 'sha256:m1'), running(worker1, 'sha256:w1', { state: 'exited' })];
    const plan = planApply(current, [main1], () => 'sha256:m1', []);
    expect(plan.keep).toEqual(['main']);
    expect(plan.steps).toEqual([
      { kind: 'kill', container: current[1] },
      { kind: 'remove-image', imageId: 'w1', image: worker1.image },
    ]);
    // An exited container stops nothing: the update lock does not hold it back.
    expect(plan.disruptive).toBe(false);
  });

  it("removes the device's networks no desired service joins", () => {
    const hostOnly = containerSpec(t1, svc('main', { composition: { network_mode: 'host' } }));
    expect(planApply([], [main1], () => 'sha256:m', [], ['3_default_aaaabbbbcccc']).steps.map((s) => s.kind)).toEqual(['start']);
    expect(planApply([], [hostOnly], () => 'sha256:m', [], ['3_default_aaaabbbbcccc']).steps).toEqual([
      { kind: 'start', spec: hostOnly },
      { kind: 'remove-network', name: '3_default_aaaabbbbcccc' },
    ]);
  });

  it('adopts the containers of a restarted agent when they match', () => {
    const current = [running(main1, 'sha256:m1'), running(worker1, 'sha256:w1')];
    const plan = planApply(current, [main1, worker1], (i) => (i === main1.image ? 'sha256:m1' : 'sha256:w1'), []);
    expect(plan).toEqual({ keep: ['main', 'worker'], steps: [], disruptive: false });
  });
});

describe('serviceStatusOf', () => {
  it('names engine states as balena does', () => {
    expect(['running', 'restarting', 'exited', 'created', 'paused', 'dead'].map(serviceStatusOf)).toEqual(['Running', 'Restarting', 'Exited', 'Installed', 'Paused', 'Exited']);
  });
});
