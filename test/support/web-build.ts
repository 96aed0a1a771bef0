// The one build check (a plain module, as jest's globalSetup loads it untransformed).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureWebBuilt } = require('./web-build.setup.js') as { ensureWebBuilt: () => void };

/** Builds the web app (web/dist, what Trove serves) when it is missing or older than its sources. */
export { ensureWebBuilt };
