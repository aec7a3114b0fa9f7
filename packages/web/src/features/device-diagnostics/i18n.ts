import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The diagnostics page's strings load with its route chunk, under `diagnostics.*`. */
i18next.addResourceBundle('en', 'translation', { diagnostics: en }, true, false);
