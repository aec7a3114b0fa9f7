import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The credits page's strings, under `credits.*`, loaded with its route chunk. */
i18next.addResourceBundle('en', 'translation', { credits: en }, true, false);
