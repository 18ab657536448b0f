import { describe, expect, it } from 'vitest';
import { settled } from './chunkReload';

describe('settled', () => {
  it('passes a loaded module through', async () => {
    const m = { default: 1 };
    await expect(settled(Promise.resolve(m))).resolves.toBe(m);
  });

  it('waits (never resolves) when Vite handed a failed preload to the automatic reload', async () => {
    // Vite resolves the import to undefined once `vite:preloadError` was prevented: rendering
    // it would throw "Cannot read properties of undefined (reading 'default')" while the page reloads.
    let done = false;
    void settled(Promise.resolve(undefined)).then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
  });
});
