import i18next from '../../lib/i18n';
import credits from './locales/credits.en.json';

/** Strings of the admin page's credits and refunds section: they load with its lazy chunk, merged under `admin.*`. */
i18next.addResourceBundle('en', 'translation', { admin: credits }, true, false);
