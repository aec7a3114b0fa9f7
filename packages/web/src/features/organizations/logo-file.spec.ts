import { describe, expect, it } from 'vitest';
import { logoFileProblem, logoSrc } from './logo-file';

describe('logoFileProblem', () => {
  it('accepts png and jpeg up to 1,000,000 bytes', () => {
    expect(logoFileProblem({ type: 'image/png', size: 1_000_000 })).toBeUndefined();
    expect(logoFileProblem({ type: 'image/jpeg', size: 10 })).toBeUndefined();
  });
  it('rejects other types and larger files', () => {
    expect(logoFileProblem({ type: 'image/gif', size: 10 })).toBe('logo_wrong_type');
    expect(logoFileProblem({ type: '', size: 10 })).toBe('logo_wrong_type');
    expect(logoFileProblem({ type: 'image/png', size: 1_000_001 })).toBe('logo_too_large');
  });
});

describe('logoSrc', () => {
  it('shows png/jpeg data URLs only', () => {
    expect(logoSrc('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(logoSrc('javascript:alert(1)')).toBeUndefined();
    expect(logoSrc(null)).toBeUndefined();
  });
});

describe('logoSrc with a web resource', () => {
  it('reads {href}', () => {
    expect(logoSrc({ href: 'data:image/jpeg;base64,/9j/' })).toBe('data:image/jpeg;base64,/9j/');
  });
});
