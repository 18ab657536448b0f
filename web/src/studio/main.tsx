import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { launchParams } from './api';
import { initStudioI18n, studioLanguage } from './i18n';
import { StudioApp } from './StudioApp';
import '../styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Carthage Studio: #root element is missing from studio.html');

const { token, lang: langParam } = launchParams(location);
const lang = studioLanguage(langParam);

void initStudioI18n(lang).then((i18n) => {
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <StudioApp token={token} lang={lang} />
      </I18nextProvider>
    </StrictMode>,
  );
});
