import i18next from '../../../lib/i18n';
import en from './locales/en.json';

/** The variable history's strings, under `variablesHistory.*`. */
i18next.addResourceBundle('en', 'translation', { variablesHistory: en }, true, false);
