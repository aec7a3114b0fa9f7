import i18next from '../../lib/i18n';
import os from './locales/os.en.json';

/**
 * Strings of the device pages' host OS and supervisor update parts: they load with those
 * lazily loaded chunks, not with the device pages' first load (the 350 KB budget), merged
 * under `devices.*`.
 */
i18next.addResourceBundle('en', 'translation', { devices: os }, true, false);
