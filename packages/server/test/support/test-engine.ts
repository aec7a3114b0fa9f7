import { inject } from 'vitest';
import type { TestEngine } from './engine.js';

/** The run's container engine, started by the api tier's global setup. */
export function testEngine(): Pick<TestEngine, 'dockerHost' | 'env'> & { socketPath: string } {
  const dockerHost = inject('dockerHost');
  return { dockerHost, socketPath: dockerHost.replace(/^unix:\/\//, ''), env: inject('engineEnv') };
}
