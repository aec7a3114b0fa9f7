import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './en.json';

type Tree = { [key: string]: string | Tree };

const src = fileURLToPath(new URL('..', import.meta.url));

/** Every locale file of the dashboard (the shared one and each feature's). */
function localeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return localeFiles(path);
    return entry.name.endsWith('.json') && dir.endsWith('locales') ? [path] : [];
  });
}

function* strings(tree: Tree, prefix = ''): Generator<[string, string]> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') yield [path, value];
    else yield* strings(value, path);
  }
}

/**
 * Texts that are the same word but not the same thing: a dialog's title, a status, and the
 * device actions' names (`action_<action>`, one family read by the action).
 */
const NOT_A_COMMON_WORD = /(^|\.)(\w+_title|status_\w+|action_\w+)$/;

describe('the common.* words', () => {
  it('are defined once: no other key of any locale file has the text of a common word', () => {
    const common = new Set(Object.values(en.common));
    const duplicates = localeFiles(src).flatMap((file) =>
      [...strings(JSON.parse(readFileSync(file, 'utf8')) as Tree)]
        .filter(([path, text]) => common.has(text) && !(file.endsWith(join('src', 'locales', 'en.json')) && path.startsWith('common.')))
        .filter(([path]) => !NOT_A_COMMON_WORD.test(path))
        .map(([path, text]) => `${relative(src, file)}: ${path} = "${text}"`),
    );
    expect(duplicates).toEqual([]);
  });

  it('include Cancel, Save, Delete and Close', () => {
    expect(en.common).toMatchObject({ cancel: 'Cancel', save: 'Save', delete: 'Delete', close: 'Close' });
  });
});
