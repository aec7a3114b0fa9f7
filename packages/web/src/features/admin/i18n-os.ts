import i18next from '../../lib/i18n';
import os from './locales/os.en.json';

/** Strings of the admin page's OS and supervisor release sections: they load with those lazy chunks, merged under `admin.*`. */
i18next.addResourceBundle('en', 'translation', { admin: os }, true, false);
