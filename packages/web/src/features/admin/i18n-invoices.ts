import i18next from '../../lib/i18n';
import invoices from './locales/invoices.en.json';

/** Strings of the admin page's invoices section: they load with its lazy chunk, merged under `admin.*`. */
i18next.addResourceBundle('en', 'translation', { admin: invoices }, true, false);
