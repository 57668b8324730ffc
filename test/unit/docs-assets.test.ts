import { docsAssets, isAsset, loadAsset } from '../../functions/docs/assets.ts';

/**
 * The served copies of the UI bundles: every rewrite of functions/docs/assets.ts still finds
 * its text in the installed packages (loading throws otherwise), and what would reach
 * another origin is gone. The browser test proves the pages quiet; this names the cause.
 */
it.each(Object.keys(docsAssets).filter(isAsset))('%s loads, with nothing that reaches another origin', async (name) => {
  const { text, gzipped } = await loadAsset(name);
  expect(gzipped.length).toBeGreaterThan(0);
  for (const gone of ['https://cdn.redoc.ly/redoc/logo-mini.svg', 'url(https://fonts.scalar.com/']) {
    expect(text.includes(gone)).toBe(false);
  }
});
