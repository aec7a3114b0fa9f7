import i18next from '../../../lib/i18n';
import en from './locales/en.json';

/** The effective-value panel's strings, under `variablesEffective.*`. */
i18next.addResourceBundle('en', 'translation', { variablesEffective: en }, true, false);
