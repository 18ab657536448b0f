import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { makeConsoleStore } from './api';
import { consoleRoutes } from './App';
import { consoleLanguage, initConsoleI18n } from './i18n';
import '../styles.css';

/*
 * The operator's console (issue 22 §3): its own page (console.html, served for /console and
 * every path under it), sharing nothing with the player app's bundle but components/ and api/.
 */
const container = document.getElementById('root');
if (!container) throw new Error('Carthage console: #root element is missing from console.html');

const store = makeConsoleStore();
const router = createBrowserRouter(consoleRoutes, { basename: '/console' });
void initConsoleI18n(consoleLanguage()).then((i18n) => {
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </I18nextProvider>
    </StrictMode>,
  );
});
