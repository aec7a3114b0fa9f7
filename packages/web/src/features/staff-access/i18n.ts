import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The audit log's strings (the staff access log grew into it, issue 21), under `staff_access.*`, loaded with its route chunk. */
i18next.addResourceBundle('en', 'translation', { staff_access: en }, true, false);
