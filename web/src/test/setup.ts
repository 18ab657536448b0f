import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../locales/en/common.json';
import account from '../locales/en/account.json';
import errors from '../locales/en/errors.json';

// English resources in memory: components render real texts in tests.
void i18n.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { common, account, errors } },
  ns: ['common', 'account', 'errors'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  react: { useSuspense: false, nsMode: 'fallback' },
});

// Vitest runs without globals, so Testing Library cannot register this itself.
afterEach(() => {
  cleanup();
});
