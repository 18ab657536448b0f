import { useEffect, useState } from 'react';
import { loadSiteSettings, type SiteSettings } from './api/settings';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; settings: SiteSettings };

/** The platform's ids are not all BCP 47 regions: "ar-ar" means Arabic, not Arabic (Argentina). */
function languageTag(code: string): string {
  const [language, region] = code.split('-');
  return region !== undefined && language !== undefined && region.toLowerCase() === language.toLowerCase() ? language : code;
}

function displayName(code: string, type: 'language' | 'currency', locale: string): string | undefined {
  try {
    const tag = type === 'language' ? languageTag(code) : code;
    const name = new Intl.DisplayNames([locale], { type, fallback: 'none' }).of(tag);
    return name && name !== tag ? name : undefined;
  } catch {
    // Not a well-formed language tag / ISO 4217 code (e.g. "USDT"): show the code alone.
    return undefined;
  }
}

function ChipLabel({ code, name }: { code: string; name: string | undefined }) {
  return (
    <>
      <span className="chip__code">{code}</span>
      {name !== undefined && (
        <span className="chip__name" dir="auto">
          {name}
        </span>
      )}
    </>
  );
}

export default function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    void loadSiteSettings(controller.signal).then((reply) => {
      if (controller.signal.aborted) return;
      setState(reply.ok ? { kind: 'ready', settings: reply.data } : { kind: 'error', message: reply.message });
    });
    return () => controller.abort();
  }, [attempt]);

  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="/">
          <span className="brand__mark" aria-hidden="true">
            C
          </span>
          <span className="brand__name">Carthage</span>
        </a>
      </header>

      <main className="content">
        <section className="hero">
          <h1 className="hero__title">Welcome to Carthage</h1>
          <p className="hero__lead">Casino and sports betting.</p>
        </section>

        {state.kind === 'loading' && (
          <p className="notice" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            Loading site settings…
          </p>
        )}

        {state.kind === 'error' && (
          <div className="notice notice--error" role="alert">
            <p className="notice__title">Could not load site settings.</p>
            <p className="notice__detail">{state.message}</p>
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        )}

        {state.kind === 'ready' && (
          <div className="panels">
            <section className="panel" aria-labelledby="currencies-title">
              <h2 id="currencies-title" className="panel__title">
                Currencies
              </h2>
              {state.settings.currencies.length === 0 ? (
                <p className="panel__empty">No currencies available.</p>
              ) : (
                <ul className="chips" aria-label="Available currencies">
                  {state.settings.currencies.map((code) => (
                    <li key={code} className="chip" data-currency={code}>
                      <ChipLabel code={code} name={displayName(code, 'currency', 'en')} />
                    </li>
                  ))}
                </ul>
              )}
            </section>

            <section className="panel" aria-labelledby="languages-title">
              <h2 id="languages-title" className="panel__title">
                Languages
              </h2>
              {state.settings.languages.length === 0 ? (
                <p className="panel__empty">No languages available.</p>
              ) : (
                <ul className="chips" aria-label="Available languages">
                  {state.settings.languages.map((code) => (
                    <li
                      key={code}
                      className={code === state.settings.defaultLang ? 'chip chip--active' : 'chip'}
                      data-lang={code}
                      lang={code}
                    >
                      <ChipLabel code={code} name={displayName(code, 'language', code)} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        )}
      </main>

      <footer className="footer">
        <p>Play responsibly. 18+</p>
      </footer>
    </div>
  );
}
