import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The Add device dialog's strings, under `add_device.*`, loaded with the device table's chunk. */
i18next.addResourceBundle('en', 'translation', { add_device: en }, true, false);
