import i18next from '../../lib/i18n';
import en from './locales/en.json';

/**
 * The terminal panel's strings load with its chunk (the 350 KB first-page budget): importing
 * this module adds them under `terminal.*`. `tt` reads them with keys checked against the
 * bundle (the bundle is not in the app-wide i18next.d.ts, which every slice edits).
 */
i18next.addResourceBundle('en', 'translation', { terminal: en }, true, false);

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

export type TerminalKey = Leaves<typeof en>;

export function tt(key: TerminalKey, options?: Record<string, unknown>): string {
  return (i18next.t as (k: string, o?: Record<string, unknown>) => string)(`terminal.${key}`, options);
}
