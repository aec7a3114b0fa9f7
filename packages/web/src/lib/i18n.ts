import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

export const defaultNS = 'translation';

// One language for now; the keys follow the spec's message keys where it names them.
void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { [defaultNS]: en } },
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

export default i18next;
