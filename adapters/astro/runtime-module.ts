import type { ResolvedConfig } from '../../src/index.js';
import type { LinkOrigins } from './link-origin.js';

/** How the injected route reaches the database. */
export type Platform = 'cloudflare' | 'cloudflare-locals' | 'node';

/**
 * The source of `virtual:site-search/runtime`: the resolved options, whether `astro dev` serves them (`dev`: the route
 * then caches nothing), and a `platform(locals)` that returns the `{ env, ctx }` for the handler the way this Astro
 * major and adapter provide them, a `database()` the handler opens itself on Node (so a damaged file gets its one clear
 * 500; elsewhere `undefined`: the binding is in `env`), and an `analytics()` that returns the database analytics are written to (on Node the
 * analytics file beside the index, with the option on; elsewhere none: D1 holds them), and `links`: the origins the
 * absolute URLs are built on (link-origin.ts).
 */
export function runtimeModule(config: ResolvedConfig, platform: Platform, dev: boolean, links: LinkOrigins = {}): string {
  const head = `export const config = ${JSON.stringify(config)};\nexport const dev = ${dev};\nexport const links = ${JSON.stringify(links)};\n`;
  switch (platform) {
    case 'cloudflare':
      // Astro 6+: bindings come from cloudflare:workers; the ExecutionContext is locals.cfContext.
      return `${head}import { env } from 'cloudflare:workers';
export function platform(locals) { return { env, ctx: locals.cfContext }; }
export const database = undefined;
export function analytics() { return undefined; }\n`;
    case 'cloudflare-locals':
      // Astro 5: both live on locals.runtime.
      return `${head}export function platform(locals) { return { env: locals.runtime?.env, ctx: locals.runtime?.ctx }; }
export const database = undefined;
export function analytics() { return undefined; }\n`;
    case 'node':
      // A Node server reads the local SQLite file, relative to the directory the server is started from. The path stays
      // an expression @vercel/nft can evaluate (process.cwd() and the inlined config): that is how @astrojs/vercel and
      // @astrojs/netlify copy the index into their function (frameworks/astro.test.ts).
      return `${head}import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openAnalytics, openSqlite } from 'site-search/node';
let db;
let analyticsDb;
export function analytics() {
  return config.analytics ? (analyticsDb ??= openAnalytics(config)) : undefined;
}
// Opened by the handler, which answers a file it cannot open (damaged) with one clear 500 and logs it once a minute;
// by the path as configured (relative to the working directory), which is what a visitor's error may show.
export function database() {
  return (db ??= openSqlite(config.sqlitePath));
}
export function platform() {
  return db || existsSync(resolve(process.cwd(), config.sqlitePath)) ? {} : { missingIndex: config.sqlitePath };
}\n`;
  }
}
