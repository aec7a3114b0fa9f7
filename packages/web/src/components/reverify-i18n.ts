import i18next from '../lib/i18n';
import en from './locales/reverify.en.json';

/** The identity check's strings load with its form (pages that may ask stay light). */
i18next.addResourceBundle('en', 'translation', { reverify: en }, true, false);
