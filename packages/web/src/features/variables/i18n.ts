import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The variables pages' strings under `variables.*`, loaded with their route chunks. */
i18next.addResourceBundle('en', 'translation', { variables: en }, true, false);
