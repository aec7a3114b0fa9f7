import type { InspectorSession } from './inspector.js';

/** A V8 CPU profile as the inspector's `Profiler.stop` returns it. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Starts the sampling CPU profiler in the inspected process (1 ms between samples). */
export async function startCpuProfile(session: InspectorSession): Promise<void> {
  await session.call('Profiler.enable');
  await session.call('Profiler.setSamplingInterval', { interval: 1_000 });
  await session.call('Profiler.start');
}

export async function stopCpuProfile(session: InspectorSession): Promise<CpuProfile> {
  const { profile } = (await session.call('Profiler.stop', {}, 120_000)) as { profile: CpuProfile };
  await session.call('Profiler.disable');
  return profile;
}

export interface CpuSummary {
  seconds: number;
  /** Share of the profile's time by where it was spent: idle, garbage collection, our code, dependencies, Node's internals, native. */
  groups: { group: string; share: number }[];
  /** The functions with the most self time. */
  top: { where: string; share: number }[];
}

/**
 * Where a profile's time went: self time (the sample's innermost frame) by function and by
 * group. The bundle's frames keep their function names; a file's path is shortened to what
 * follows `packages/` or `node_modules/`.
 */
export function summariseCpuProfile(profile: CpuProfile, top = 25): CpuSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0);
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byWhere = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const [id, t] of self) {
    const f = byId.get(id)!.callFrame;
    const where = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    byWhere.set(where, (byWhere.get(where) ?? 0) + t);
    const group = /^\((idle|garbage collector|program)\)$/.test(f.functionName)
      ? f.functionName
      : f.url === ''
        ? '(native)'
        : f.url.startsWith('node:')
          ? 'node internals'
          : f.url.includes('node_modules')
            ? 'dependencies'
            : 'ours (bundle)';
    byGroup.set(group, (byGroup.get(group) ?? 0) + t);
  }
  const share = (t: number) => (total > 0 ? t / total : 0);
  return {
    seconds: total / 1e6,
    groups: [...byGroup].sort((a, b) => b[1] - a[1]).map(([group, t]) => ({ group, share: share(t) })),
    top: [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, top).map(([where, t]) => ({ where, share: share(t) })),
  };
}
