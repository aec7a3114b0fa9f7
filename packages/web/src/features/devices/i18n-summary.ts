import i18next from '../../lib/i18n';
import extras from './locales/summary.en.json';

/**
 * Strings of the device page's lazily loaded parts (services card, tag manager, markdown
 * syntax dialog): they load with those chunks, not with the device pages' first load (the
 * 350 KB budget), merged under `devices.*`.
 */
i18next.addResourceBundle('en', 'translation', { devices: extras }, true, false);
