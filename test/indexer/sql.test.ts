/** The D1 SQL writer: literals that survive any text, statements under D1's size limit, checked by running the SQL. */
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig } from '../../src/index.js';
import { pushStatements, toSqlFile, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { D1_MAX_STATEMENT_BYTES, sqlLiteral } from '../../src/indexer/sql.js';

const config = resolveConfig({ database: 'd', site: 'docs', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] });
const document = (i: number, content: string, extra: Partial<IndexDocument> = {}): IndexDocument => ({
  title: `Doc ${i}`,
  description: '',
  content,
  tags: '',
  url: `/d/${i}`,
  site: 'docs',
  type: 'doc',
  date: '',
  emoji: '',
  sections: [],
  ...extra,
});

describe('sqlLiteral', () => {
  it('doubles quotes and drops what SQL text cannot carry', () => {
    expect(sqlLiteral("it's")).toBe("'it''s'");
    expect(sqlLiteral("'; DROP TABLE search_index; --")).toBe("'''; DROP TABLE search_index; --'");
    expect(sqlLiteral('nul\u0000byte')).toBe("'nulbyte'");
    expect(sqlLiteral('lone \uD83D surrogate')).toBe("'lone \uFFFD surrogate'");
    expect(sqlLiteral('line\nbreak')).toBe("'line\nbreak'");
  });
});

describe('pushStatements', () => {
  const nasty = [
    "O'Reilly's \"quoted\" `tick` ; -- comment /* block */",
    'emoji 😀 and CJK 漢字 and RTL עברית',
    'control\u0001chars\u0000and lone \uDC00 low surrogate',
    'x'.repeat(120_000),
    'a long line '.repeat(10_000),
    "backslash \\ and percent % and dollar $1 and question ? and colon :name",
  ];
  const docs = [...nasty.map((text, i) => document(i, text, { title: text.slice(0, 80) })), ...Array.from({ length: 300 }, (_, i) => document(100 + i, `body ${i} `.repeat(200)))];
  const statements = pushStatements(config, docs);

  it('keeps every statement under D1’s 100,000-byte limit and splits inserts into several', () => {
    const inserts = statements.filter((s) => s.startsWith('INSERT INTO search_index (title'));
    expect(inserts.length).toBeGreaterThan(3);
    for (const s of statements) expect(new TextEncoder().encode(s).length).toBeLessThan(D1_MAX_STATEMENT_BYTES);
  });

  it('deletes only this site’s rows, or all rows when site is empty', () => {
    expect(statements).toContain("DELETE FROM search_index WHERE site = 'docs'");
    const all = pushStatements(resolveConfig({ database: 'd', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] }), []);
    expect(all).toContain('DELETE FROM search_index');
  });

  it('round-trips every row when the SQL file is run, with other sites untouched', async () => {
    const db = openSqlite(':memory:');
    db.exec(toSqlFile(pushStatements(resolveConfig({ database: 'd', site: 'other', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] }), [document(999, 'other site', { site: 'other' })])));
    db.exec(toSqlFile(statements));
    const { results } = await db.prepare("SELECT title, content FROM search_index WHERE site = 'docs' ORDER BY rowid").all<{ title: string; content: string }>();
    expect(results).toHaveLength(docs.length);
    expect(results[0]!.content).toBe(nasty[0]);
    expect(results[1]!.content).toBe(nasty[1]);
    expect(results[2]!.content).toBe('controlcharsand lone \uFFFD low surrogate');
    expect(results[5]!.content).toBe(nasty[5]);
    // A single row too large for one statement keeps as much body as fits.
    expect(results[3]!.content.length).toBeGreaterThan(50_000);
    expect(results[4]!.content.startsWith('a long line a long line')).toBe(true);
    const other = await db.prepare("SELECT count(*) AS n FROM search_index WHERE site = 'other'").all<{ n: number }>();
    expect(Number(other.results[0]!.n)).toBe(1);
    db.close();
  });

  it('writes the same sections as a direct push, their text folded for matching and as written for snippets', async () => {
    const sections = [{ heading: 'Déploiement', anchor: 'deploiement', content: 'Le Déploiement ÉCHOUÉ sur Cloudflare' }];
    const docs = [document(1, 'body', { sections })];
    const fromFile = openSqlite(':memory:');
    fromFile.exec(toSqlFile(pushStatements(config, docs)));
    const pushed = openSqlite(':memory:');
    await pushed.transaction(() => writeIndex(pushed, config, docs));
    const rows = async (db: typeof pushed) => (await db.prepare('SELECT page, sections FROM search_sections').all<{ page: number; sections: string }>()).results;
    expect((await rows(fromFile)).map((r) => JSON.parse(r.sections))).toEqual([[['Déploiement', 'deploiement', 'le deploiement echoue sur cloudflare', 'Le Déploiement ÉCHOUÉ sur Cloudflare']]]);
    expect(await rows(pushed)).toEqual(await rows(fromFile));
    fromFile.close();
    pushed.close();
  });

  it("fits a long page's sections in one D1 statement, shortening each section's text alike", async () => {
    // 300 sections of 2,000 characters of text that is 3 bytes a character in UTF-8: 1.8 MB as written.
    const sections = Array.from({ length: 300 }, (_, i) => ({ heading: `節 ${i}`, anchor: `s${i}`, content: '検索'.repeat(1000) }));
    const statements = pushStatements(config, [document(1, 'body', { sections })]);
    const insert = statements.filter((s) => s.startsWith('INSERT INTO search_sections'));
    expect(insert).toHaveLength(1);
    expect(new TextEncoder().encode(insert[0]!).length).toBeLessThan(D1_MAX_STATEMENT_BYTES);
    const db = openSqlite(':memory:');
    db.exec(toSqlFile(statements));
    const { results } = await db.prepare('SELECT sections FROM search_sections').all<{ sections: string }>();
    const stored = JSON.parse(results[0]!.sections) as [string, string, string][];
    expect(stored).toHaveLength(300);
    expect(stored.map(([heading]) => heading)).toEqual(sections.map((s) => s.heading));
    const lengths = new Set(stored.map(([, , text]) => text.length));
    expect(lengths.size).toBe(1);
    expect([...lengths][0]).toBeGreaterThan(10);
    db.close();
  });
});

describe('a page\'s Markdown as written (issue 53)', () => {
  it('is held in parts, each statement under D1\'s limit, that read back as the page byte for byte with its outline', async () => {
    // The worst case for a statement's bytes: three-byte characters, and quotes a literal doubles, on long lines.
    const markdown = Array.from({ length: 400 }, (_, i) => `## 節 ${i}\n\n${"検'索".repeat(300)}\n\n\`\`\`js\nconst s = '${i}';\n\`\`\``).join('\n\n');
    const outline = Array.from({ length: 400 }, (_, i): [number, string, string, number] => [2, `節 ${i}`, `節-${i}`, markdown.indexOf(`## 節 ${i}\n`)]);
    const statements = pushStatements(config, [document(1, 'body', { markdown, outline })]);
    const parts = statements.filter((s) => s.startsWith('INSERT INTO search_markdown'));
    expect(parts.length).toBeGreaterThan(5);
    for (const s of parts) expect(new TextEncoder().encode(s).length).toBeLessThan(D1_MAX_STATEMENT_BYTES);
    const db = openSqlite(':memory:');
    db.exec(toSqlFile(statements));
    const { results } = await db.prepare('SELECT markdown, outline FROM search_markdown ORDER BY part').all<{ markdown: string; outline: string | null }>();
    expect(results.map((r) => r.markdown).join('')).toBe(markdown);
    expect(JSON.parse(results[0]!.outline!)).toEqual(outline);
    expect(results.slice(1).every((r) => r.outline === null)).toBe(true);
    db.close();
  });
});
