import i18next from '../../lib/i18n';
import en from './locales/signup.en.json';

/** The sign-up form's extra strings load with its route chunk (see features/releases/i18n.ts). */
i18next.addResourceBundle('en', 'translation', { signup: en }, true, false);
