// The test app with Astro's trailingSlash set from TRAILING_SLASH ('always' or 'never'), built and served by
// test/frameworks/starlight.test.ts with `astro build --config astro.config.slash.mjs` and `astro dev --config …`.
import config from './astro.config.mjs';

export default { ...config, trailingSlash: process.env.TRAILING_SLASH };
