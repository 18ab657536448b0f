import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { makeDeskStore } from './api';
import { DeskApp } from './DeskApp';
import { deskLanguage, initDeskI18n } from './i18n';
import '../styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Carthage desk: #root element is missing from desk.html');

const store = makeDeskStore();
void initDeskI18n(deskLanguage()).then((i18n) => {
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Provider store={store}>
          <DeskApp />
        </Provider>
      </I18nextProvider>
    </StrictMode>,
  );
});
