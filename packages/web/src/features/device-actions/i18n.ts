import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The actions page's strings load with its route chunk, under `deviceActions.*` (labels and reasons are the devices.* bundle the device shell loads). */
i18next.addResourceBundle('en', 'translation', { deviceActions: en }, true, false);
