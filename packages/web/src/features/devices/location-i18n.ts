import i18next from '../../lib/i18n';
import en from './locales/location.en.json';

/**
 * The map lens's and Location page's strings, under `devices.*` like the rest of the feature,
 * but loaded with the map and location chunks: the device pages' first-page budget has no
 * room for them in locales/en.json.
 */
i18next.addResourceBundle('en', 'translation', { devices: en }, true, false);
