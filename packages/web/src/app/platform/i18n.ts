import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The platform banners' strings (offline, throttling, start-up, chunk loading), part of the shell. */
i18next.addResourceBundle('en', 'translation', { platform: en }, true, false);
