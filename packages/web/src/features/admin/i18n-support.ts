import i18next from '../../lib/i18n';
import support from './locales/support.en.json';

/** Strings of the admin page's support sections (tickets, ticket fields): they load with their lazy chunks, merged under `admin.*`. */
i18next.addResourceBundle('en', 'translation', { admin: support }, true, false);
