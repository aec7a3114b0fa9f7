import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  isAddedKey,
  limitConcurrency,
  mergeRows,
  newRowKey,
  pendingCount,
  pendingWrites,
  stageAdd,
  stageDelete,
  stageUpdate,
  undoChange,
  type Changes,
  type PendingWrite,
} from './staging';

interface Row {
  id: number;
  name: string;
  value: string;
}
const keyOf = (row: Row) => String(row.id);
const same = (a: Row, b: Row) => a.name === b.name && a.value === b.value;
const base: Row[] = [
  { id: 1, name: 'A', value: 'a' },
  { id: 2, name: 'B', value: 'b' },
  { id: 3, name: 'C', value: 'c' },
];
const empty: Changes<Row> = new Map();

describe('staging rows', () => {
  it('shows the server rows unchanged when nothing is staged', () => {
    const rows = mergeRows(base, keyOf, empty);
    expect(rows.map((r) => r.state)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(pendingCount(rows)).toBe(0);
  });

  it('marks added, updated and deleted rows, added rows last', () => {
    const key = newRowKey();
    let c = stageAdd(empty, key, { id: 0, name: 'D', value: 'd' });
    c = stageUpdate(c, '1', base[0], { ...base[0]!, value: 'a2' }, same);
    c = stageDelete(c, '2', base[1]);
    const rows = mergeRows(base, keyOf, c);
    expect(rows.map((r) => [r.key, r.state, r.value.value])).toEqual([
      ['1', 'updated', 'a2'],
      ['2', 'deleted', 'b'],
      ['3', 'unchanged', 'c'],
      [key, 'added', 'd'],
    ]);
    expect(isAddedKey(key)).toBe(true);
    expect(isAddedKey('1')).toBe(false);
    expect(pendingCount(rows)).toBe(3);
    expect(rows[0]!.original?.value).toBe('a');
  });

  it('an update back to the server value is no change', () => {
    let c = stageUpdate(empty, '1', base[0], { ...base[0]!, value: 'x' }, same);
    c = stageUpdate(c, '1', base[0], { ...base[0]!, value: 'a' }, same);
    expect(c.size).toBe(0);
  });

  it('editing an added row keeps it added; deleting it drops it', () => {
    const key = newRowKey();
    let c = stageAdd(empty, key, { id: 0, name: 'D', value: 'd' });
    c = stageUpdate(c, key, undefined, { id: 0, name: 'D', value: 'd2' }, same);
    expect(c.get(key)).toEqual({ kind: 'added', value: { id: 0, name: 'D', value: 'd2' } });
    c = stageDelete(c, key, undefined);
    expect(c.size).toBe(0);
  });

  it('deleting an updated row keeps the server value as the original; undo restores it', () => {
    let c = stageUpdate(empty, '1', base[0], { ...base[0]!, value: 'x' }, same);
    c = stageDelete(c, '1', base[0]);
    expect(c.get('1')).toEqual({ kind: 'deleted', original: base[0] });
    c = undoChange(c, '1');
    expect(mergeRows(base, keyOf, c)[0]).toMatchObject({ state: 'unchanged', value: base[0] });
  });

  it('a change whose server row is gone is not shown', () => {
    const c = stageUpdate(empty, '9', { id: 9, name: 'Z', value: 'z' }, { id: 9, name: 'Z', value: 'y' }, same);
    expect(mergeRows(base, keyOf, c).some((r) => r.key === '9')).toBe(false);
  });

  it('lists the writes of apply all', () => {
    const key = newRowKey();
    let c = stageAdd(empty, key, { id: 0, name: 'D', value: 'd' });
    c = stageUpdate(c, '1', base[0], { ...base[0]!, value: 'a2' }, same);
    c = stageDelete(c, '3', base[2]);
    expect(pendingWrites(mergeRows(base, keyOf, c))).toEqual([
      { key: '1', kind: 'updated', value: { ...base[0], value: 'a2' }, original: base[0] },
      { key: '3', kind: 'deleted', original: base[2] },
      { key, kind: 'added', value: { id: 0, name: 'D', value: 'd' } },
    ]);
  });
});

describe('limitConcurrency', () => {
  it('runs at most n tasks at once and all of them', async () => {
    const limit = limitConcurrency(10);
    let active = 0;
    let peak = 0;
    const done = await Promise.all(
      Array.from({ length: 35 }, (_, i) =>
        limit(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 1 + (i % 3)));
          active -= 1;
          return i;
        }),
      ),
    );
    expect(peak).toBe(10);
    expect(done).toEqual(Array.from({ length: 35 }, (_, i) => i));
  });

  it('passes rejections through and keeps going', async () => {
    const limit = limitConcurrency(1);
    const failing = limit(() => Promise.reject(new Error('no')));
    const thrown = limit(() => {
      throw new Error('sync');
    });
    await expect(failing).rejects.toThrow('no');
    await expect(thrown).rejects.toThrow('sync');
    await expect(limit(async () => 'ok')).resolves.toBe('ok');
  });

  it('refuses a concurrency below one', () => {
    expect(() => limitConcurrency(0)).toThrow(RangeError);
  });
});

describe('applyChanges', () => {
  it('writes every change ten at a time; failed rows keep their change with the message', async () => {
    const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `V${i + 1}`, value: 'old' }));
    let c: Changes<Row> = new Map();
    for (const row of rows) c = stageUpdate(c, keyOf(row), row, { ...row, value: 'new' }, same);
    let active = 0;
    let peak = 0;
    const writer = async (write: PendingWrite<Row>) => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 2));
      active -= 1;
      if (write.kind === 'updated' && write.value.id % 10 === 0) throw new Error(`refused ${write.value.name}`);
    };
    const outcome = await applyChanges(mergeRows(rows, keyOf, c), c, writer, (e) => (e as Error).message);
    expect(peak).toBe(10);
    expect(outcome.results).toHaveLength(25);
    expect(outcome.failed).toBe(2);
    expect([...outcome.remaining.keys()]).toEqual(['10', '20']);
    expect(outcome.remaining.get('10')).toMatchObject({ kind: 'updated', error: 'refused V10' });
    const after = mergeRows(rows, keyOf, outcome.remaining);
    expect(after.find((r) => r.key === '20')).toMatchObject({ state: 'updated', error: 'refused V20' });
    expect(pendingCount(after)).toBe(2);
  });

  it('with nothing staged writes nothing', async () => {
    let calls = 0;
    const outcome = await applyChanges(mergeRows(base, keyOf, empty), empty, async () => (calls += 1), String);
    expect(calls).toBe(0);
    expect(outcome.failed).toBe(0);
  });
});
