import { Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { SpinnerOverlay } from '../components/Spinner';
import { i18n } from './i18n';
import type { AppStore } from './store';

export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<SpinnerOverlay fullscreen />}>{children}</Suspense>
      </I18nextProvider>
    </Provider>
  );
}
