import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, ContainerLogs } from '@flotilla/agent';
import { TEST_BASE_IMAGE, TEST_LABEL, removeLabelled } from './support/engine.js';
import { hex } from './support/fleet-helpers.js';
import { testEngine } from './support/test-engine.js';

// The agent's container log shipping across container restarts, against the real engine: a
// log follow that spans a restart can miss a line of the new run (Podman 4.3 does, about one
// restart in ten), and the reattach's replay must then ship that line, and nothing twice.
// Compared line for line (as a multiset) with everything the engine kept.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `logrestart-${hex(4)}`;
const uuid = `logrestart${hex(8)}`;
const SCRIPT =
  'trap "exit 0" TERM; i=0; while [ $i -lt 5 ]; do i=$((i+1)); echo "out $i"; echo "err $i" >&2; done; n=0; while true; do n=$((n+1)); echo "tick $n"; /bin/busybox sleep 1; done';
/** Restarts per run (more with LOG_RESTARTS for a longer hunt). */
const ROUNDS = Number(process.env.LOG_RESTARTS ?? 12);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lines as `O text` / `E text` from a non-following, multiplexed engine log. */
function engineLines(raw: Buffer): string[] {
  const out: string[] = [];
  let b = raw;
  while (b.length >= 8) {
    const size = b.readUInt32BE(4);
    for (const l of b.subarray(8, 8 + size).toString('utf8').split('\n')) if (l !== '') out.push(`${b[0] === 2 ? 'E' : 'O'} ${l}`);
    b = b.subarray(8 + size);
  }
  return out;
}
const tally = (lines: string[]) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());

afterAll(() => removeLabelled(engine, testId), 60_000);

describe('container log shipping across restarts', () => {
  it(`${ROUNDS} restarts in a row: every line the engine kept is shipped exactly once`, async () => {
    const c = await docker.createContainer({
      Image: TEST_BASE_IMAGE,
      Cmd: ['/bin/busybox', 'sh', '-c', SCRIPT],
      Labels: { [TEST_LABEL]: testId, [CONTAINER_LABELS.deviceUuid]: uuid, [CONTAINER_LABELS.serviceName]: 'main' },
      HostConfig: { RestartPolicy: { Name: 'always' } },
    });
    await c.start();
    const shipped: string[] = [];
    const problems: string[] = [];
    const logs = new ContainerLogs({ docker, uuid, onLine: (l) => shipped.push(`${l.isStdErr ? 'E' : 'O'} ${l.message}`), system: () => {}, busy: () => false, log: (m) => problems.push(m), syncMs: 1_000 });
    await logs.start();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // Restarts at different points of the tick's second.
        await sleep(2_500 + ((round * 377) % 1_000));
        // Podman 4 answers 500 when the trap's exit races the stop's SIGKILL; the container is then stopped.
        await c.restart({ t: 1 }).catch(async () => {
          await sleep(300);
          if (!(await c.inspect()).State.Running) await c.start();
        });
      }
      await sleep(2_500);
      await c.stop({ t: 1 }).catch(() => undefined);
      // The follow ends with the container; what it had is shipped by then.
      const before = shipped.length;
      await sleep(1_500);
      expect(shipped.length).toBe(before);
    } finally {
      await logs.stop();
    }
    const kept = engineLines((await c.logs({ follow: false, stdout: true, stderr: true })) as unknown as Buffer);
    expect(kept.filter((l) => l === 'O out 1')).toHaveLength(ROUNDS + 1);
    const want = tally(kept);
    const got = tally(shipped);
    const diff = [...new Set([...want.keys(), ...got.keys()])].filter((k) => want.get(k) !== got.get(k)).map((k) => `${k}: engine ${want.get(k) ?? 0}, shipped ${got.get(k) ?? 0}`);
    expect(diff).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
