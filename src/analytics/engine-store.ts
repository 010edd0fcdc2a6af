import type { ClickEvent, SearchEvent } from './events.js';

/** The part of a Workers Analytics Engine dataset binding used here. */
export interface AnalyticsEngineDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** True for a Workers Analytics Engine binding. */
export function isEngineDataset(value: unknown): value is AnalyticsEngineDataset {
  return typeof (value as Partial<AnalyticsEngineDataset> | undefined)?.writeDataPoint === 'function';
}

/**
 * The column layout of a data point, shared by the writer and the SQL that reads them back (`engine-sql.ts`):
 * blob1 kind (`search` or `click`), blob2 site, blob3 type, blob4 query, blob5 match, blob6 suggestion, blob7 url,
 * blob8 who searched (`endpoint` or `mcp`; empty in points written before it, which are readers');
 * double1 results, double2 rank; index1 the site (Analytics Engine samples per index).
 */
export function searchPoint(e: SearchEvent) {
  return { blobs: ['search', e.site, e.type, e.query, e.match, e.suggestion, '', e.source], doubles: [e.results, 0], indexes: [e.site] };
}

export function clickPoint(e: ClickEvent) {
  return { blobs: ['click', e.site, '', e.query, '', '', e.url, ''], doubles: [0, e.rank], indexes: [e.site] };
}
