import { describe, expect, it } from 'vitest';
import { submitMutation, throwIfBatchFailed, type Notifier } from './submit-mutation';

/** A notifier that records the toasts it was asked for. */
function recorder() {
  const toasts: string[] = [];
  const notify: Notifier = { success: (m) => toasts.push(`success:${m}`), error: (e) => toasts.push(`error:${String(e)}`) };
  return { toasts, notify };
}

describe('submitMutation', () => {
  it('toasts the success text and then closes, in that order', async () => {
    const { toasts, notify } = recorder();
    const result = await submitMutation(async () => 7, notify, { success: (n) => `saved ${n}`, onSuccess: () => toasts.push('closed') });
    expect(result).toEqual({ ok: true, result: 7 });
    expect(toasts).toEqual(['success:saved 7', 'closed']);
  });

  it('toasts a failure as an error and leaves the dialog open', async () => {
    const { toasts, notify } = recorder();
    const result = await submitMutation(() => Promise.reject(new Error('nope')), notify, { success: 'saved', onSuccess: () => toasts.push('closed') });
    expect(result.ok).toBe(false);
    expect(toasts).toEqual(['error:Error: nope']);
  });

  it('shows no error toast for an error the form shows itself', async () => {
    const { toasts, notify } = recorder();
    const shown: unknown[] = [];
    await submitMutation(() => Promise.reject(new Error('409')), notify, { onError: (e) => (shown.push(e), true) });
    expect(toasts).toEqual([]);
    expect(shown).toHaveLength(1);
  });

  it('toasts nothing on success when no text is given, and settles either way', async () => {
    const { toasts, notify } = recorder();
    await submitMutation(async () => undefined, notify, { onSettled: () => toasts.push('settled') });
    await submitMutation(() => Promise.reject(new Error('x')), notify, { onSettled: () => toasts.push('settled') });
    expect(toasts).toEqual(['settled', 'error:Error: x', 'settled']);
  });
});

describe('throwIfBatchFailed', () => {
  const text = (count: number) => `Operation failed for ${count}`;

  it('throws nothing when every item succeeded', () => {
    expect(() => throwIfBatchFailed({ total: 3, failed: 0, firstError: undefined }, text)).not.toThrow();
  });

  it("throws a single item's own error, and the count for a larger batch", () => {
    const own = new Error('cannot_delete_last_organization_admin');
    expect(() => throwIfBatchFailed({ total: 1, failed: 1, firstError: own }, text)).toThrow(own);
    expect(() => throwIfBatchFailed({ total: 3, failed: 2, firstError: own }, text)).toThrow();
    try {
      throwIfBatchFailed({ total: 3, failed: 2, firstError: own }, text);
    } catch (err) {
      expect(err).toBe('Operation failed for 2');
    }
  });
});
