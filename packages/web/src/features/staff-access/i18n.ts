import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The staff access log's strings, under `staff_access.*`, loaded with its route chunk. */
i18next.addResourceBundle('en', 'translation', { staff_access: en }, true, false);
