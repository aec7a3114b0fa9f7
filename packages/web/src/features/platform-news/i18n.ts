import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The help menu's, banners' and changelog's strings, under `platform_news.*`, loaded with their chunks. */
i18next.addResourceBundle('en', 'translation', { platform_news: en }, true, false);
