import 'i18next';
import type en from './locales/en.json';
// Feature bundles added at run time with their route chunks (see features/releases/i18n.ts).
import type releasesEn from './features/releases/locales/en.json';
import type devicesEn from './features/devices/locales/en.json';
import type devicesSummaryEn from './features/devices/locales/summary.en.json';
import type devicesLocationEn from './features/devices/locales/location.en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & { releases: typeof releasesEn; devices: typeof devicesEn & typeof devicesLocationEn & typeof devicesSummaryEn } };
  }
}
