import { describe, expect, it } from 'vitest';
import { formatPairingCode, recoveryCodeRows, recoveryCodesText } from './two-factor-rules';

describe('two-factor display rules', () => {
  it('groups the pairing code by four characters', () => {
    expect(formatPairingCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toBe('GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ');
    expect(formatPairingCode('ABCDEF')).toBe('ABCD EF');
  });

  it('lays recovery codes out two per row, the last row possibly alone', () => {
    expect(recoveryCodeRows(['a', 'b', 'c', 'd', 'e'])).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('writes the text file with a header and the codes two per line', () => {
    expect(recoveryCodesText(['aaaaa-aaaaa', 'bbbbb-bbbbb', 'ccccc-ccccc'], 'Codes for ann')).toBe(
      'Codes for ann\n\naaaaa-aaaaa    bbbbb-bbbbb\nccccc-ccccc\n',
    );
  });
});
