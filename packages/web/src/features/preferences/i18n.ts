import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The preferences page's strings load with its route chunk (see features/releases/i18n.ts). */
i18next.addResourceBundle('en', 'translation', { preferences: en }, true, false);
