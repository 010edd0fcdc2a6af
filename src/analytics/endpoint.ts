import type { SearchDatabase } from '../db/types.js';
import type { ResolvedConfig } from '../options/options.js';
import type { SearchInput } from '../search/query.js';
import { readClickReport } from './click.js';
import { indexedClickTarget } from './click-target.js';
import { SearchInputError } from '../errors.js';
import { isEngineDataset } from './engine-store.js';
import { summarize, type AnswerBody, type AnswerSummary, type SearchSource } from './events.js';
import { storedQuery } from './query-text.js';
import { AnalyticsRecorder, type AnalyticsTarget } from './recorder.js';

interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** The handler's side of analytics: what it calls after a search, and on a click report. */
export interface EndpointAnalytics {
  readonly recorder: AnalyticsRecorder;
  /**
   * Records an answered search; `answer` is the answer's body (a miss) or the cached response (a hit, read off the
   * path). `source` is who asked: the endpoint's readers (default) or an assistant through the MCP server.
   */
  searched(input: SearchInput, answer: AnswerBody | Response, where: Where, ctx?: WaitUntil | null, source?: SearchSource): void;
  /** Answers a click report: 204 when counted, a `SearchInputError` (400) when the report is not one. */
  clicked(request: Request, siteOrigin: string, where: Where, ctx?: WaitUntil | null): Promise<void>;
}

/** What a request's events are written to: the Worker's env (for an Analytics Engine binding) and the databases. */
export interface Where {
  env: object | undefined;
  /** The database analytics were given (`runtime.analytics`), if any: opened on first use. */
  analyticsDb: () => SearchDatabase | undefined;
  /** The search database: where counts go when no other is given (D1). */
  searchDb: SearchDatabase;
}

/** The endpoint's analytics, or undefined when the option is off. */
export function endpointAnalytics(config: ResolvedConfig, now?: () => number): EndpointAnalytics | undefined {
  const options = config.analytics;
  if (!options) return undefined;
  const recorder = new AnalyticsRecorder(options, now);
  const target = ({ env, analyticsDb, searchDb }: Where): AnalyticsTarget => {
    const engine = options.engineBinding ? (env as Record<string, unknown> | undefined)?.[options.engineBinding] : undefined;
    return isEngineDataset(engine) ? { engine } : { db: analyticsDb() ?? searchDb };
  };
  const record = (input: SearchInput, summary: AnswerSummary, where: Where, ctx: WaitUntil | null | undefined, source: SearchSource) => {
    try {
      const suggestion = summary.suggestion && storedQuery(summary.suggestion, config.maxQueryLength);
      recorder.search({ day: recorder.today(), site: config.site, source, type: input.type, query: storedQuery(input.q, config.maxQueryLength), ...summary, suggestion }, target(where), ctx);
    } catch (e) {
      // Recording is never in the way of the answer, whatever fails in it (opening the analytics file included).
      recorder.failed(e);
    }
  };
  return {
    recorder,
    searched(input, answer, where, ctx, source = 'endpoint') {
      if (!(answer instanceof Response)) return record(input, summarize(answer), where, ctx, source);
      // A cached answer is read in the background: the reader gets the original body untouched, at once.
      const read = answer
        .json()
        .then((body) => record(input, summarize(body as AnswerBody), where, ctx, source))
        .catch((e: unknown) => console.error('[site-search] analytics could not read a cached answer:', e));
      if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(read);
    },
    async clicked(request, siteOrigin, where, ctx) {
      const report = await readClickReport(request, config, siteOrigin);
      let url: string | undefined;
      try {
        url = await indexedClickTarget(where.searchDb, config.site, report.url);
      } catch (e) {
        // The index could not be read: the report is not counted (logged once, as a failed write is).
        return recorder.failed(e);
      }
      if (url === undefined) throw new SearchInputError('A click report\'s "url" must be a page of the search index.');
      try {
        const event = { day: recorder.today(), site: config.site, query: storedQuery(report.q, config.maxQueryLength), url, rank: report.rank };
        recorder.click(event, target(where), ctx);
      } catch (e) {
        recorder.failed(e);
      }
    },
  };
}
