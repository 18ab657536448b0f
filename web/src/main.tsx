import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { listenForPreloadErrors } from './app/chunkReload';
import { initI18n } from './app/i18n';
import { Providers } from './app/providers';
import { createRouter } from './app/router';
import { rememberSession } from './app/remembered';
import { registerServiceWorker } from './app/serviceWorker';
import { makeStore } from './app/store';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Carthage: #root element is missing from index.html');

// A chunk a deploy replaced reloads the app once (app/chunkReload.ts, layout/RouteError.tsx).
listenForPreloadErrors();
initI18n();
const store = makeStore();
// A reload of a signed-in page shows the remembered player at once (never the guest header).
rememberSession(store);
const router = createRouter();

createRoot(container).render(
  <StrictMode>
    <Providers store={store}>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </Providers>
  </StrictMode>,
);

registerServiceWorker();
