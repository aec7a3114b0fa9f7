import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** Account security, deletion and the CLI/OAuth login pages: strings load with their chunks. */
i18next.addResourceBundle('en', 'translation', { account: en }, true, false);
