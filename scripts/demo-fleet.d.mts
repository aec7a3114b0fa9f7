import type { ChildProcess, StdioOptions } from 'node:child_process';

export const DEMO_RELEASE_DELAY_MS: number;

export interface SeededDemoFleet {
  token: string;
  fleet: number;
  /** The second release's id when it is made, null when the fleet already had two. */
  secondRelease: Promise<number | null>;
  cancel(): void;
}

export function seedDemoFleet(opts: { api: string; dataDir: string; releaseDelayMs?: number }): Promise<SeededDemoFleet>;

export function startDemo(opts: {
  root: string;
  count: number;
  api?: string;
  dataDir?: string;
  releaseDelayMs?: number;
  stdio?: StdioOptions;
}): Promise<{ child: ChildProcess; seeded: SeededDemoFleet }>;
