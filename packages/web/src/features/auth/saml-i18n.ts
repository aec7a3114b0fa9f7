import i18next from '../../lib/i18n';
import en from './locales/saml.en.json';

/** The SAML sign-in pages' strings load with their route chunk (see features/releases/i18n.ts). */
i18next.addResourceBundle('en', 'translation', { saml: en }, true, false);
