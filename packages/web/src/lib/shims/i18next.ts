/*
 * Stands in for `i18next` and `react-i18next` at run time (vite.config.ts aliases both here;
 * TypeScript still checks keys against the real packages' types, see i18next.d.ts). The
 * dashboard uses a small part of them — one language, one namespace, `{{name}}`
 * interpolation, `_one`/`_other` plurals by `count`, bundles added with route chunks —
 * and the two packages cost ~14 KB gzip on every first page (the 350 KB budget).
 */

type Tree = { [key: string]: string | Tree };
type Options = Record<string, unknown> & { count?: number; defaultValue?: string };

const bundles: Record<string, Tree> = {};
let language = 'en';
let plurals = new Intl.PluralRules(language);

function merge(target: Tree, source: Tree, overwrite: boolean): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (typeof value === 'object' && value !== null && typeof current === 'object') merge(current, value, overwrite);
    else if (current === undefined || overwrite) target[key] = typeof value === 'object' ? structuredClone(value) : value;
  }
}

function lookup(key: string): string | undefined {
  let node: string | Tree | undefined = bundles[language];
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `key` translated: plural form by `count`, `{{name}}` filled from `options`; the key itself when missing. */
export function t(key: string, options?: Options): string {
  let text: string | undefined;
  if (typeof options?.count === 'number') {
    // As i18next: `_zero` for a count of 0 when present, then the language's plural form.
    if (options.count === 0) text = lookup(`${key}_zero`);
    text ??= lookup(`${key}_${plurals.select(options.count)}`) ?? lookup(`${key}_other`);
  }
  text ??= lookup(key) ?? options?.defaultValue ?? key;
  if (!options) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (match, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? match : String(value);
  });
}

interface InitOptions {
  lng?: string;
  resources?: Record<string, Record<string, Tree>>;
}

interface I18n {
  readonly language: string;
  t: typeof t;
  use(): I18n;
  init(options?: InitOptions): Promise<typeof t>;
  addResourceBundle(lng: string, ns: string, resources: Tree, deep?: boolean, overwrite?: boolean): I18n;
}

const i18n: I18n = {
  get language(): string {
    return language;
  },
  t,
  use(): I18n {
    return i18n;
  },
  init(options: InitOptions = {}): Promise<typeof t> {
    language = options.lng ?? language;
    plurals = new Intl.PluralRules(language);
    for (const [lng, namespaces] of Object.entries(options.resources ?? {})) {
      for (const tree of Object.values(namespaces)) i18n.addResourceBundle(lng, 'translation', tree, true, true);
    }
    return Promise.resolve(t);
  },
  /** Adds strings (a route chunk's), deep-merged; existing keys are kept unless `overwrite`. */
  addResourceBundle(lng: string, _ns: string, resources: Tree, _deep = true, overwrite = false): I18n {
    merge((bundles[lng] ??= {}), resources, overwrite);
    return i18n;
  },
};

export default i18n;

// react-i18next's surface the dashboard uses.
export const initReactI18next = { type: '3rdParty' as const, init: () => undefined };
const translation = { t, i18n, ready: true };
export function useTranslation(): typeof translation {
  return translation;
}
