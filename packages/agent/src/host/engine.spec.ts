import { describe, expect, it } from 'vitest';
import { EngineError, connectEngine, dockerOptions, registryAuthFor, registryOf, socketCandidates, withTag } from './engine.js';

describe('finding the container engine', () => {
  it('reads DOCKER_HOST as unix:// or tcp://', () => {
    expect(dockerOptions('unix:///run/podman/podman.sock')).toEqual({ socketPath: '/run/podman/podman.sock' });
    expect(dockerOptions('tcp://10.0.0.2:2375')).toEqual({ host: '10.0.0.2', port: 2375, protocol: 'http' });
    expect(dockerOptions('tcp://docker')).toEqual({ host: 'docker', port: 2375, protocol: 'http' });
    expect(() => dockerOptions('ssh://user@host')).toThrow(EngineError);
  });

  it('tries the usual sockets, the engine asked for first, rootless Podman included', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    expect(socketCandidates('docker', env)[0]).toBe('/var/run/docker.sock');
    expect(socketCandidates('podman', env)).toEqual(
      expect.arrayContaining(['/run/podman/podman.sock', '/run/user/1000/podman/podman.sock', '/var/run/docker.sock']),
    );
    expect(socketCandidates('podman', env)[0]).toBe('/run/podman/podman.sock');
  });

  it('fails with a clear error when nothing answers', async () => {
    await expect(connectEngine('docker', { DOCKER_HOST: 'unix:///nonexistent/flotilla/docker.sock' })).rejects.toThrow(
      /no docker engine answers: tried unix:\/\/\/nonexistent\/flotilla\/docker.sock .*--engine none/,
    );
  });

  it('asks the registry of the image reference for credentials', () => {
    expect(registryOf('127.0.0.1:5000/v2/abc')).toBe('127.0.0.1:5000');
    expect(registryOf('flotilla.example.com/v2/abc@sha256:00')).toBe('flotilla.example.com');
    expect(registryOf('localhost/img:1')).toBe('localhost');
    expect(registryOf('library/busybox')).toBe('docker.io');
    expect(registryOf('busybox')).toBe('docker.io');
  });

  it("sends the device's credentials only to Flotilla's registries", () => {
    const o = { uuid: 'u'.repeat(32), deviceApiKey: 'key', trustedRegistries: ['127.0.0.1:8080', 'registry.example.com'] };
    expect(registryAuthFor('127.0.0.1:8080/v2/abc@sha256:00', o)).toEqual({ username: `d_${'u'.repeat(32)}`, password: 'key', serveraddress: '127.0.0.1:8080' });
    expect(registryAuthFor('registry.example.com/v2/abc', o)?.serveraddress).toBe('registry.example.com');
    expect(registryAuthFor('evil.example.com/v2/abc', o)).toBeUndefined();
    expect(registryAuthFor('busybox', o)).toBeUndefined();
  });

  it('names an untagged reference :latest, as the engine does', () => {
    expect(withTag('127.0.0.1:5000/v2/abc')).toBe('127.0.0.1:5000/v2/abc:latest');
    expect(withTag('127.0.0.1:5000/v2/abc:v1')).toBe('127.0.0.1:5000/v2/abc:v1');
    expect(withTag('127.0.0.1:5000/v2/abc@sha256:00')).toBe('127.0.0.1:5000/v2/abc@sha256:00');
  });
});
