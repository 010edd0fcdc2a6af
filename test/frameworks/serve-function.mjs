// Serves a built serverless function's fetch handler over node:http, run with the function's folder as the working
// directory, as the host runs it: `node serve-function.mjs vercel PORT` (the handler .vc-config.json names) or
// `node serve-function.mjs netlify PORT ENTRY`. The hosts' own runtimes do not run outside them; this stands in for
// their launcher only, never for the function or the file system it reads.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toNodeListener } from '../../dist/node.js';

const [kind, port, netlifyEntry] = process.argv.slice(2);
const entry = kind === 'vercel' ? JSON.parse(readFileSync('.vc-config.json', 'utf8')).handler : netlifyEntry;
const fn = (await import(pathToFileURL(resolve(entry)).href)).default;
// Vercel: an object with fetch(request). Netlify Functions 2.0: handler(request, context), context with the fields of
// Netlify's Context type (Astro's reads ip; the Next.js runtime's reads account, deploy, site and requestId).
const netlifyContext = () => ({
  ip: '127.0.0.1',
  requestId: 'local',
  account: { id: 'local' },
  deploy: { id: 'local', context: 'production', published: true },
  site: { id: 'local', name: 'local', url: '' },
  server: { region: 'local' },
  geo: {},
  params: {},
  cookies: { get() {}, set() {}, delete() {} },
  waitUntil() {},
});
const handler = kind === 'vercel' ? (request) => fn.fetch(request) : (request) => fn(request, netlifyContext());
createServer(toNodeListener(handler)).listen(Number(port), '127.0.0.1');
