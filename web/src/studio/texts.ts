import type { LanguageCode } from '../app/i18n';

/**
 * Studio texts added with the crash safeguards (guarded action button, queued bet, auto cash-out
 * validation, rounds in progress), merged into the `studio` namespace under `crash` and `history`.
 * They live here, not in `locales/<lang>/studio.json`, only because that change was limited to
 * `src/studio/`; moving them into the JSON files is mechanical (same keys) — the locale files win
 * when both define a key.
 *
 * Numbers reach these texts already isolated (`isolate` in money.ts), so "2.60×" keeps its order
 * inside Arabic sentences.
 */
export const STUDIO_TEXTS = {
  en: {
    crash: {
      betQueued: 'Bet queued',
      queued: 'Queued for next round',
      queuedAuto: 'auto {{m}}',
      queuedCancel: 'Cancel',
      queuedCancelLabel: 'Cancel the bet queued for next round',
      queuedCancelled: 'Next-round bet cancelled',
      autoFormat: 'Digits only, one decimal point, up to 2 decimals (e.g. 2.50)',
      autoRange: 'Auto cash-out from {{min}} to {{max}}',
    },
    history: {
      inProgress: 'Round in progress',
      refunded: 'Stake refunded',
    },
  },
  fr: {
    crash: {
      betQueued: 'Mise en attente',
      queued: 'Pour la manche suivante',
      queuedAuto: 'auto {{m}}',
      queuedCancel: 'Annuler',
      queuedCancelLabel: 'Annuler la mise en attente de la prochaine manche',
      queuedCancelled: 'Mise de la prochaine manche annulée',
      autoFormat: 'Chiffres uniquement, une virgule, 2 décimales au plus (ex. 2,50)',
      autoRange: 'Encaissement auto de {{min}} à {{max}}',
    },
    history: {
      inProgress: 'Manche en cours',
      refunded: 'Mise remboursée',
    },
  },
  ar: {
    crash: {
      betQueued: 'الرهان في الانتظار',
      queued: 'في انتظار الجولة التالية',
      queuedAuto: 'سحب تلقائي {{m}}',
      queuedCancel: 'إلغاء',
      queuedCancelLabel: 'إلغاء الرهان المنتظر للجولة التالية',
      queuedCancelled: 'أُلغي رهان الجولة التالية',
      autoFormat: 'أرقام فقط، بفاصلة عشرية واحدة وخانتين عشريتين على الأكثر (مثال: 2.50)',
      autoRange: 'السحب التلقائي من {{min}} إلى {{max}}',
    },
    history: {
      inProgress: 'الجولة جارية',
      refunded: 'أُعيدت قيمة الرهان',
    },
  },
} as const satisfies Record<LanguageCode, unknown>;

interface Bundles {
  addResourceBundle: (lng: string, ns: string, resources: object, deep?: boolean, overwrite?: boolean) => unknown;
}

/** Merges these texts into the `studio` namespace of `lng` (deep; existing keys are kept). */
export function addStudioTexts(i18n: Bundles, lng: LanguageCode) {
  i18n.addResourceBundle(lng, 'studio', STUDIO_TEXTS[lng], true, false);
}
