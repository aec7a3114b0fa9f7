import i18next from '../../lib/i18n';
import en from './locales/later.en.json';

/** Strings of the platform parts loaded after start-up (throttling banner, session check). */
i18next.addResourceBundle('en', 'translation', { platformLater: en }, true, false);
