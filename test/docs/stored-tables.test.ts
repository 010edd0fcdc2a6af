/**
 * docs/indexing.md's "The stored table" shows the tables a push creates "verbatim from src/db/schema.ts": every
 * statement there is one the schema runs, and every table and index the schema creates is shown, so a schema change
 * that leaves the page behind fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaStatements } from '../../src/db/schema.js';

const page = readFileSync(new URL('../../docs/indexing.md', import.meta.url), 'utf8');

/** The section's SQL statements, comments left out, each on one line with single spaces. */
function documentedStatements(): string[] {
  const start = page.indexOf('## The stored table');
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  const blocks = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const lines = blocks.flatMap((block) => block.split('\n')).filter((line) => line.trim() && !line.trim().startsWith('--'));
  const statements: string[] = [];
  for (const line of lines) {
    if (/^CREATE /.test(line)) statements.push(line);
    else statements[statements.length - 1] += ` ${line}`;
  }
  return statements.map(oneLine);
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('docs/indexing.md, "The stored table"', () => {
  const schema = schemaStatements().filter((sql) => sql.startsWith('CREATE ')).map(oneLine);

  it('shows each table and index the schema creates, as the schema writes it', () => {
    const documented = documentedStatements();
    expect(documented.length).toBeGreaterThan(5);
    expect(schema.filter((sql) => !documented.includes(sql)), 'created but not shown').toEqual([]);
    expect(documented.filter((sql) => !schema.includes(sql)), 'shown but not created').toEqual([]);
  });
});
