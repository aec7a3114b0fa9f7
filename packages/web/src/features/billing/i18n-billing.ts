import i18next from '../../lib/i18n';
import billing from './locales/en.json';

/** The billing page's strings: they load with its lazy chunk, merged under `billing.*`. */
i18next.addResourceBundle('en', 'translation', { billing }, true, false);
