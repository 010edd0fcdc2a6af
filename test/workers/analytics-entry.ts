/**
 * Three Workers as users export them, with analytics on: `/d1/api/search` counts into the D1 database (written as
 * answered, `flushSeconds: 0`), `/default/api/search` too with the default options (`analytics: true`), and
 * `/engine/api/search` writes to the Workers Analytics Engine binding `SEARCH_ANALYTICS`. The one test addition: the
 * data points the binding received are kept (the real binding is still called) and reported at `/__points`, since a
 * local Analytics Engine cannot be queried.
 */
import { createWorker } from '../../adapters/workers.js';
import { recordAnalytics } from '../../src/analytics/index.js';

const sources = [
  { dir: 'docs', type: 'doc', url: '/docs/:slug' },
  { dir: 'blog', type: 'post', url: '/blog/:slug' },
];
const toD1 = createWorker({ database: 'worker-test', sources, apiRoute: '/d1/api/search', analytics: { flushSeconds: 0 } }, { recordAnalytics });
const byDefault = createWorker({ database: 'worker-test', sources, apiRoute: '/default/api/search', analytics: true }, { recordAnalytics });
const toEngine = createWorker({ database: 'worker-test', sources, apiRoute: '/engine/api/search', analytics: { engineBinding: 'SEARCH_ANALYTICS' } }, { recordAnalytics });

interface Dataset {
  writeDataPoint(point: unknown): void;
}
const points: unknown[] = [];

export default {
  async fetch(request: Request, env: { SEARCH_ANALYTICS: Dataset }, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/__points') return Response.json(points);
    if (pathname.startsWith('/engine/')) {
      const dataset: Dataset = { writeDataPoint: (point) => (points.push(point), env.SEARCH_ANALYTICS.writeDataPoint(point)) };
      return toEngine.fetch(request, { ...env, SEARCH_ANALYTICS: dataset }, ctx as never);
    }
    if (pathname.startsWith('/default/')) return byDefault.fetch(request, env, ctx as never);
    return toD1.fetch(request, env, ctx as never);
  },
};
