import i18next from '../../lib/i18n';
import en from './locales/en.json';

/** The billing banners' strings, under `billing_banners.*`, loaded with their chunk. */
i18next.addResourceBundle('en', 'translation', { billing_banners: en }, true, false);
