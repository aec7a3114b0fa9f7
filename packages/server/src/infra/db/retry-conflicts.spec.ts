import { describe, expect, it } from 'vitest';
import { retryConflicts } from './db.js';

const failing = (codes: string[]) => {
  let calls = 0;
  const run = async () => {
    calls++;
    const code = codes.shift();
    if (code) throw Object.assign(new Error(code), { code });
    return 'done';
  };
  return { run, calls: () => calls };
};

describe('retryConflicts', () => {
  it('runs a transaction again after a deadlock or a serialization failure', async () => {
    const t = failing(['40P01', '40001', '40P01']);
    await expect(retryConflicts(t.run)).resolves.toBe('done');
    expect(t.calls()).toBe(4);
  });

  it('gives up after five tries, and never retries other errors', async () => {
    const always = failing(Array.from({ length: 9 }, () => '40P01'));
    await expect(retryConflicts(always.run)).rejects.toMatchObject({ code: '40P01' });
    expect(always.calls()).toBe(5);
    const other = failing(['23505']);
    await expect(retryConflicts(other.run)).rejects.toMatchObject({ code: '23505' });
    expect(other.calls()).toBe(1);
  });
});
