// The offline page in the player's language: the one the app stored (localStorage carthage.lang),
// else the browser's; Arabic right-to-left. The texts come from src/locales/*/common.json
// ("offline"), put in at build time by vite.config.ts.
(() => {
  const texts = __OFFLINE_TEXTS__;
  let stored = null;
  try {
    stored = localStorage.getItem('carthage.lang');
  } catch {
    /* storage refused */
  }
  const pick = (code) => (code ?? '').slice(0, 2).toLowerCase();
  const lang = [stored, ...(navigator.languages ?? [])].map(pick).find((c) => c in texts) ?? 'en';
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  for (const el of document.querySelectorAll('[data-text]')) el.textContent = texts[lang][el.dataset.text];
  document.title = `${texts[lang].title} · Carthage`;
  document.querySelector('.retry')?.addEventListener('click', () => location.reload());
  // Back online: reload the page the player asked for.
  addEventListener('online', () => location.reload());
})();
