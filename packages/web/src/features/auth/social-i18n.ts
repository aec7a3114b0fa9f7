import i18next from '../../lib/i18n';
import en from './locales/social.en.json';

/** Social sign-in strings (issue 20) load with the login and callback route chunks. */
i18next.addResourceBundle('en', 'translation', { social: en }, true, false);
