import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** Two-factor strings load with the login step's and the preferences tab's chunks (see features/releases/i18n.ts). */
i18next.addResourceBundle('en', 'translation', { twoFactor: en }, true, false);
