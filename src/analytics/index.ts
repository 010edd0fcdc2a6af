/**
 * `site-search/analytics`: search analytics for a Worker of its own. `createWorker` ships only the code a Worker
 * imports, so with the `analytics` option on it records through the function imported from here
 * (docs/analytics.md, "Turning it on"); a Worker without analytics does not carry their code.
 */
import type { ResolvedConfig } from '../options/options.js';
import { endpointAnalytics, type EndpointAnalytics } from './endpoint.js';

/**
 * Records searches and clicks as the `analytics` option says (undefined when it is off). Pass it to `createWorker`.
 *
 * @example
 * export default createWorker(searchOptions, { recordAnalytics });
 */
export function recordAnalytics(config: ResolvedConfig): EndpointAnalytics | undefined {
  return endpointAnalytics(config);
}

export type { EndpointAnalytics } from './endpoint.js';
