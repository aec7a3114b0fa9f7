import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The identity-provider pages' strings, under `identity_providers.*`, loaded with their route chunk. */
i18next.addResourceBundle('en', 'translation', { identity_providers: en }, true, false);
