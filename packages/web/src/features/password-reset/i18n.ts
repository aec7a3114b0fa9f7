import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The password reset pages' strings load with their route chunks (see features/releases/i18n.ts). */
i18next.addResourceBundle('en', 'translation', { passwordReset: en }, true, false);
