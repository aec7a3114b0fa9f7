import i18next from '../../../lib/i18n';
import en from './locales/en.json';

/**
 * The staging's strings (bar, row marks, undo) under `staging.*`, loaded with the pages that
 * use it (variables, configuration), not with every first page.
 */
i18next.addResourceBundle('en', 'translation', { staging: en }, true, false);
