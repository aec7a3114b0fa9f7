import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The logs panel's strings load with its lazy chunk (the 350 KB first-page budget), under `deviceLogs.*`. */
i18next.addResourceBundle('en', 'translation', { deviceLogs: en }, true, false);
