import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PushProgress, engineAddress, eventError, pushedDigest, readEvents, type ProgressEvent } from './engine.js';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('engineAddress', () => {
  it('follows DOCKER_HOST: a unix socket or tcp', () => {
    expect(engineAddress({ DOCKER_HOST: 'unix:///run/user/1000/podman/podman.sock' })).toEqual({ socketPath: '/run/user/1000/podman/podman.sock' });
    expect(engineAddress({ DOCKER_HOST: 'tcp://10.0.0.5:2375' })).toEqual({ host: '10.0.0.5', port: 2375, protocol: 'http' });
    expect(engineAddress({ DOCKER_HOST: 'tcp://engine', DOCKER_TLS_VERIFY: '1' })).toEqual({ host: 'engine', port: 2376, protocol: 'https' });
  });

  it("else takes the first of Docker's and Podman's usual sockets that exists", () => {
    const only = (path: string) => (p: string) => p === path;
    expect(engineAddress({}, only('/var/run/docker.sock'))).toEqual({ socketPath: '/var/run/docker.sock' });
    expect(engineAddress({}, only('/run/podman/podman.sock'))).toEqual({ socketPath: '/run/podman/podman.sock' });
    expect(engineAddress({ XDG_RUNTIME_DIR: '/run/user/7' }, only('/run/user/7/podman/podman.sock'))).toEqual({ socketPath: '/run/user/7/podman/podman.sock' });
    expect(() => engineAddress({}, () => false)).toThrow(/no container engine found: set DOCKER_HOST/);
  });
});

describe('engine progress streams', () => {
  it('splits JSON lines across chunks; a non-JSON line becomes stream text', async () => {
    const events: ProgressEvent[] = [];
    await readEvents(Readable.from(['{"stream":"STEP 1/2', ': FROM x\\n"}\n{"err', 'or":"boom"}\nplain text\n']), (e) => events.push(e));
    expect(events).toEqual([{ stream: 'STEP 1/2: FROM x\n' }, { error: 'boom' }, { stream: 'plain text\n' }]);
    expect(eventError({ errorDetail: { message: 'bad' } })).toBe('bad');
    expect(eventError({ stream: 'ok' })).toBeUndefined();
  });

  it("finds the pushed digest in Docker's aux and in Podman's status line", () => {
    expect(pushedDigest({ aux: { Tag: 'latest', Digest: DIGEST, Size: 529 } })).toBe(DIGEST);
    expect(pushedDigest({ status: `latest: digest: ${DIGEST} size: 579` })).toBe(DIGEST);
    expect(pushedDigest({ status: 'Pushing', progressDetail: { current: 1, total: 2 } })).toBeUndefined();
  });

  it('adds up push progress over layers', () => {
    const p = new PushProgress();
    expect(p.update({ status: 'Preparing', id: 'a' })).toBeUndefined();
    expect(p.update({ status: 'Pushing', id: 'a', progressDetail: { current: 50, total: 100 } })).toBe(50);
    expect(p.update({ status: 'Pushing', id: 'b', progressDetail: { current: 0, total: 300 } })).toBe(12);
    expect(p.update({ status: 'Pushed', id: 'a' })).toBe(25);
    expect(p.update({ status: 'Pushing', id: 'b', progressDetail: { current: 300, total: 300 } })).toBe(100);
  });
});
