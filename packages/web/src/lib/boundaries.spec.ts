import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative import of a file (static, dynamic and side-effect), as a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((m) => relative(src, resolve(dirname(file), m[1] ?? '')));
}

/** "file -> import" for each import of a file under `folder` that `forbidden` refuses. */
function violations(folder: string, forbidden: (from: string, to: string) => boolean): string[] {
  return sourceFiles(join(src, folder)).flatMap((file) => {
    const from = relative(src, file);
    return importsOf(file)
      .filter((to) => forbidden(from, to))
      .map((to) => `${from} -> ${to}`);
  });
}

const featureOf = (path: string) => (path.startsWith('features/') ? path.split('/')[1] : undefined);

// The web README's layout: features compose only in app/, shared code names no feature.
describe('dashboard boundaries', () => {
  it('features do not import each other', () => {
    expect(violations('features', (from, to) => featureOf(to) !== undefined && featureOf(to) !== featureOf(from))).toEqual([]);
  });

  it('shared components/ and lib/ import no feature', () => {
    const importsFeature = (_from: string, to: string) => featureOf(to) !== undefined;
    expect([...violations('components', importsFeature), ...violations('lib', importsFeature)]).toEqual([]);
  });
});
