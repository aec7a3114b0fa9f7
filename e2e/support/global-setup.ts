import { startTestEngine } from '@flotilla/server/test-engine';

/*
 * The e2e run's container engine: the same Podman (Docker-compatible socket, runc, offline
 * busybox base image) the api tier starts, once per run. DOCKER_HOST (and the podman CLI's
 * CONTAINERS_CONF / CONTAINERS_REGISTRIES_CONF) reach the tests through the environment the
 * workers inherit; e2e/add-device.spec.ts hands DOCKER_HOST to the agent it installs.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const engine = await startTestEngine();
  process.env.DOCKER_HOST = engine.dockerHost;
  for (const [k, v] of Object.entries(engine.env)) process.env[k] = v;
  return () => engine.stop();
}
