import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';

const progress = createRequire(import.meta.url)('./progress-stream.cjs') as (o: { time?: number; length?: number }) => NodeJS.ReadWriteStream;

interface State {
  length: number;
  transferred: number;
  percentage: number;
  eta: number;
}

async function run(chunks: string[], options: { time?: number; length?: number }): Promise<{ out: string; states: State[] }> {
  const stream = progress(options);
  const states: State[] = [];
  stream.on('progress', (s: State) => states.push({ ...s }));
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve).on('error', reject);
    Readable.from(chunks.map((c) => Buffer.from(c))).pipe(stream);
  });
  return { out, states };
}

describe('progress-stream shim (balena-request download progress)', () => {
  it('passes the bytes through unchanged and ends with a 100 % report of everything transferred', async () => {
    const { out, states } = await run(['abc', 'defg', 'hi'], { time: 0, length: 9 });
    expect(out).toBe('abcdefghi');
    expect(states.at(-1)).toMatchObject({ length: 9, transferred: 9, percentage: 100, eta: 0 });
    // time 0: a report after every chunk too, with the running total and percentage.
    expect(states.slice(0, 3).map((s) => s.transferred)).toEqual([3, 7, 9]);
    expect(states[0]!.percentage).toBeCloseTo(100 / 3);
  });

  it('reports at most once per interval before the end', async () => {
    const { states } = await run(['a', 'b', 'c', 'd'], { time: 60_000, length: 4 });
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ transferred: 4, percentage: 100 });
  });

  it('says 0 % while the length is unknown', async () => {
    const { states } = await run(['ab'], { time: 0 });
    expect(states[0]).toMatchObject({ length: 0, transferred: 2, percentage: 0 });
  });
});
