/**
 * The withdrawal queue (issue 22; docs/BACKOFFICE.md "Withdrawal queue"), as a player and the
 * operator's staff meet it: 1,600 TND paid by hand through four eyes (the admin asks, finance
 * approves), a 1,500 TND withdrawal that waits held — the player's frame says it is being
 * checked, at 320 and 390 px — then finance approves it from the queue. English, French and Arabic.
 */

/** @param {any} h the runner's helpers (web/scripts/e2e.mjs) */
export function tests(h) {
  const { assert, urlOf, BASE } = h;

  /**
   * An API call on the page's context; the envelope's result (asserting success).
   * @param {import('playwright-core').APIRequestContext} request @param {string} path
   * @param {unknown} [body] @param {Record<string, string>} [headers]
   */
  const call = async (request, path, body, headers = {}) => {
    const res =
      body === undefined
        ? await request.get(urlOf(path), { headers: { Origin: BASE, ...headers } })
        : await request.post(urlOf(path), { data: body, headers: { Origin: BASE, ...headers } });
    const env = await res.json();
    assert(env.status === 0, `${path}: ${JSON.stringify(env).slice(0, 300)}`);
    return env.result;
  };

  return /** @type {const} */ (['en', 'fr', 'ar']).map((lang) => ({
    name: `withdrawal review (${lang}): a large withdrawal waits held and says so at 320 and 390 px; finance approves it from the queue`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const { page, errors } = await h.newPlayerPage(context, signal);
      await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
      const me = await call(page.request, '/api/user/check');
      const admin = { Authorization: `Bearer ${await h.staffToken('admin', signal)}` };
      const finance = { Authorization: `Bearer ${await h.staffToken('finance', signal)}` };

      // 1,600 TND by hand: above the four-eyes amount, so the admin's adjustment is a request
      // that finance approves.
      const asked = await call(
        page.request,
        '/api/admin/wallet/adjust',
        { userId: me.id, kind: 'real', amount: '1600', reason: 'e2e: a large win paid by hand', idempotencyKey: `e2e-review-${lang}-${me.id}` },
        admin,
      );
      assert(asked.status === 'pending' && asked.request?.id, `the adjustment did not wait for approval: ${JSON.stringify(asked)}`);
      await call(page.request, `/api/admin/wallet/adjust-requests/${asked.request.id}/approve`, {}, finance);

      // The withdrawal: held at once, and the frame says it is being checked.
      await page.goto('/profile/paykassma/withdrawal');
      await page.getByTestId('amount-input').fill('1500');
      await page.getByTestId('paykassma-withdrawal-submit').click();
      await page.waitForURL(/\/payment-frame$/);
      await page.getByTestId('frame-withdrawalReview').waitFor({ timeout: 20_000 });
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 0, `the review frame in ${lang} at ${width} px overflows by ${overflow} px`);
        // The card's content sits in its middle: a child wider than the card pushed everything
        // to one side once (French at 320 px).
        const skew = await page.evaluate(() => {
          const card = document.querySelector('[data-testid="frame-withdrawalReview"]');
          const box = card?.getBoundingClientRect();
          const kids = [...(card?.children ?? [])].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
          if (!box || kids.length === 0) return 'no card';
          const left = Math.min(...kids.map((r) => r.left)) - box.left;
          const right = box.right - Math.max(...kids.map((r) => r.right));
          return Math.abs(left - right) <= 2 ? '' : `${Math.round(left)} px on the left, ${Math.round(right)} px on the right`;
        });
        assert(skew === '', `the review card in ${lang} at ${width} px is lopsided: ${skew}`);
        await h.shot(page, `withdrawal-review-${lang}-${width}`);
      }
      await page.setViewportSize({ width: 390, height: 844 });

      // The queue: the withdrawal with its signals; finance approves, the provider has it.
      const queue = await call(page.request, '/api/admin/payments/withdrawals', undefined, finance);
      const row = queue.find((/** @type {any} */ r) => r.userId === me.id);
      assert(row && row.amount === 1500 && row.status === 'review', `not in the queue: ${JSON.stringify(queue).slice(0, 300)}`);
      assert(row.signals.withdrawals24h === 1 && row.signals.accountAgeDays === 0, `signals: ${JSON.stringify(row.signals)}`);
      const approved = await call(page.request, `/api/admin/payments/withdrawals/${row.id}/approve`, {}, finance);
      assert(['pending', 'succeeded'].includes(approved.status), `approved: ${JSON.stringify(approved)}`);
      const intent = await call(page.request, `/api/payment/intent/${row.id}`);
      assert(intent.status !== 'review', `the player still reads review: ${JSON.stringify(intent)}`);
      note(`${lang}: withdrawal ${row.id} of 1,500 TND waited for review, approved: ${approved.status}`);
      h.assertNoPageErrors(errors);
    },
  }));
}
