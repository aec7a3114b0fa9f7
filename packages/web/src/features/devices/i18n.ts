import i18next from '../../lib/i18n';
import en from './locales/en.json';

/**
 * The device table's and device pages' strings load with their route chunks, not with every
 * first page (the 350 KB first-page budget): importing this module adds them under `devices.*`.
 */
i18next.addResourceBundle('en', 'translation', { devices: en }, true, false);
