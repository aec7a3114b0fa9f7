import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_BASE_IMAGE, TEST_LABEL, removeLabelled } from './support/engine.js';
import { testEngine } from './support/test-engine.js';

// The container-engine harness the registry, deploy and agent tests stand on.
describe('test container engine', () => {
  const engine = testEngine();
  const docker = new Docker({ socketPath: engine.socketPath });
  const testId = `harness-${randomBytes(4).toString('hex')}`;
  afterAll(() => removeLabelled(engine, testId));

  it('runs a labelled container from the offline base image and removes it by label', async () => {
    const container = await docker.createContainer({
      Image: TEST_BASE_IMAGE,
      Cmd: ['/bin/busybox', 'sh', '-c', 'echo "hello $WHO"'],
      Env: ['WHO=flotilla'],
      Labels: { [TEST_LABEL]: testId },
    });
    await container.start();
    const result = await container.wait();
    expect(result.StatusCode).toBe(0);
    const logs = await container.logs({ stdout: true, stderr: true });
    expect(logs.toString('latin1')).toContain('hello flotilla');
    await removeLabelled(engine, testId);
    const left = await docker.listContainers({ all: true, filters: { label: [`${TEST_LABEL}=${testId}`] } });
    expect(left).toHaveLength(0);
  });
});
