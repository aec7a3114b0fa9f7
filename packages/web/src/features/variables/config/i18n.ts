import i18next from '../../../lib/i18n';
import en from './locales/en.json';

/** The configuration pages' strings, under `variablesConfig.*`. */
i18next.addResourceBundle('en', 'translation', { variablesConfig: en }, true, false);
