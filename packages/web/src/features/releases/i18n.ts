import i18next from '../../lib/i18n';
import en from './locales/en.json';

/**
 * The release pages' strings load with their route chunks, not with every first page (the
 * 350 KB first-page budget): importing this module adds them under `releases.*`.
 */
i18next.addResourceBundle('en', 'translation', { releases: en }, true, false);
