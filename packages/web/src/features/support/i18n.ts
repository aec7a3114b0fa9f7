import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The support page's strings, under `support.*`, loaded with its route chunk. */
i18next.addResourceBundle('en', 'translation', { support: en }, true, false);
