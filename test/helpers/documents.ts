import { type SearchDatabase } from '../../src/index.js';
import { ensureSchema } from '../../src/db/schema.js';
import { packVocabularyStatements, syncDocsStatement, syncTitlesStatement } from '../../src/db/schema.js';
import { scopeText } from '../../src/db/scope.js';

/** A row of search_index as the tests write it. */
export interface TestDocument {
  title: string;
  description?: string;
  content?: string;
  tags?: string;
  url: string;
  site?: string;
  type?: string;
  date?: string;
  emoji?: string;
}

/** Creates the schema and inserts rows through the database interface (the same path on every driver). */
export async function seed(db: SearchDatabase, docs: TestDocument[]): Promise<void> {
  await ensureSchema(db);
  const insert = db.prepare(
    'INSERT INTO search_index (title, description, content, tags, scope, url, site, type, date, emoji) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // The scope column as the indexer writes it: the searches filter by site, type and tag through it.
  const statements = docs.map((d) =>
    insert.bind(
      d.title,
      d.description ?? '',
      d.content ?? '',
      d.tags ?? '',
      scopeText(d.site ?? '', d.type ?? 'doc', (d.tags ?? '').split(' ').filter(Boolean)),
      d.url,
      d.site ?? '',
      d.type ?? 'doc',
      d.date ?? '',
      d.emoji ?? '',
    ),
  );
  if (db.batch) await db.batch(statements);
  else for (const statement of statements) await statement.run();
  // As the indexer does after inserting: the side table of site, type and day, the titles table, and the vocabulary
  // packed with its generation (none of these rows' words are in it: a test that corrects writes them, or indexes).
  await db.prepare(syncDocsStatement('')).run();
  await db.prepare(syncTitlesStatement('')).run();
  for (const sql of packVocabularyStatements('')) await db.prepare(sql).run();
}

/** The day before `now` minus `days`, as YYYY-MM-DD (UTC). */
export function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

export const NOW = new Date('2026-11-21T12:00:00Z');

/** A small site (dates relative to `now`): docs and blog posts, dated and undated, with markup-looking text in bodies. */
export function siteDocs(now: Date = new Date()): TestDocument[] {
  return [
  {
    title: 'Content collections',
    description: 'Organize Markdown and MDX with type-safe collections',
    content: 'Define a collection with defineCollection() and query it with getCollection(). Collections live in src/content.',
    tags: 'content mdx',
    url: '/docs/content-collections/',
    type: 'doc',
    emoji: '📚',
  },
  {
    title: 'Deploy to Cloudflare',
    description: 'Ship your site to Workers with D1',
    content: 'Run wrangler deploy. Bind a D1 database named SEARCH_DB in wrangler.toml. Collections are not required.',
    tags: 'deploy cloudflare',
    url: '/docs/deploy/cloudflare/',
    type: 'doc',
  },
  {
    title: 'Escaping in snippets',
    description: 'Why markup in documents is shown as text',
    content: 'A malicious page might contain <img src=x onerror=alert(1)> or <script>alert("x")</script> inside its escaping example.',
    url: '/docs/escaping/',
    type: 'doc',
  },
  {
    title: 'Release notes',
    description: 'What changed in this release',
    content: 'This release improves collections and search relevance.',
    tags: 'release',
    url: '/blog/release/',
    type: 'post',
    date: daysAgo(now, 1),
    emoji: '🚀',
  },
  {
    title: 'Old announcement',
    description: 'An announcement from long ago',
    content: 'This release was the first one. Collections did not exist yet.',
    tags: 'release',
    url: '/blog/old/',
    type: 'post',
    date: '2019-01-01',
  },
  {
    title: 'Client directives',
    description: 'client:load, client:idle and client:visible',
    content: 'Use client:load to hydrate a component immediately. NEAR the top, OR at the bottom, AND NOT hidden.',
    tags: 'islands',
    url: '/docs/directives/',
    type: 'doc',
  },
  {
    title: 'Café au lait',
    description: 'Diacritics are folded',
    content: 'Le café est prêt. Résumé of the naïve approach.',
    url: '/fr/cafe/',
    type: 'doc',
  },
];
}
