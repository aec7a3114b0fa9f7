import i18next from '../../lib/i18n';
import billing from './locales/billing.en.json';

/** Strings of the admin page's billing plans section: they load with its lazy chunk, merged under `admin.*`. */
i18next.addResourceBundle('en', 'translation', { admin: billing }, true, false);
