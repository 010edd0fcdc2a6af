import { describe, expect, it } from 'vitest';
import { matchingSections, sectionSnippet, sectionWords } from '../../src/search/sections.js';
import { escapeSnippet } from '../../src/search/snippet.js';
import { sectionsJson } from '../../src/db/write-plan.js';

const snippet = (lead: string, query: string[], tokens = 6) => escapeSnippet(sectionSnippet(lead, sectionWords(query), tokens));

describe('the sections listed under a result', () => {
  const json = sectionsJson([
    { heading: 'Install', anchor: 'install', content: 'Run the installer. Nothing about the topic here.' },
    { heading: 'Deploy to Cloudflare', anchor: 'deploy-to-cloudflare', content: 'Bind the D1 database, then deploy.' },
    { heading: 'Options', anchor: 'options', content: 'Set the Cloudflare account id.' },
  ]);

  it('keeps the matching ones, best first (a heading counts ten times), at most max, with the text as written', () => {
    const found = matchingSections(json, sectionWords(['cloudflare']), 3);
    expect(found.map((s) => s.anchor)).toEqual(['deploy-to-cloudflare', 'options']);
    expect(found[1]!.lead).toBe('Set the Cloudflare account id.');
    expect(matchingSections(json, sectionWords(['cloudflare']), 1).map((s) => s.anchor)).toEqual(['deploy-to-cloudflare']);
    expect(matchingSections(json, sectionWords(['kubernetes']), 3)).toEqual([]);
    // An index written before the text as written was stored (schema version 8): sections, no lead.
    expect(matchingSections('[["Options","options","set the cloudflare account id."]]', sectionWords(['cloudflare']), 3)).toEqual([
      { heading: 'Options', anchor: 'options', lead: '', holds: 1 },
    ]);
  });

  it('snippets mark the word inside its punctuation, around the first match, with … where text was left out', () => {
    expect(snippet('Sea otters float in kelp forests along rocky coasts.', ['coasts'])).toBe('…rocky <mark>coasts</mark>.');
    expect(snippet('(Collections) group files.', ['collection'])).toBe('(<mark>Collections</mark>) group files.');
    expect(snippet('one two three four five six seven eight nine ten', ['zebra'])).toBe('one two three four five six…');
    // Accents and case fold as the index does.
    expect(snippet('Le Déploiement échoue.', ['deploiement'])).toBe('Le <mark>Déploiement</mark> échoue.');
  });

  it('marks only words whose first run of letters and digits starts with a stem, ASCII or not', () => {
    // The stem inside a word (getEntry) or after its first run (naïve-cache) is no match; case and digits are kept.
    expect(snippet('Call getEntry() or entry.data first.', ['entry'])).toBe('…or <mark>entry</mark>.data first.');
    expect(snippet('The cache-control header, and naïve-cache code.', ['cache'], 8)).toBe('The <mark>cache</mark>-control header, and naïve-cache code.');
    expect(snippet('  leading space then CACHE2 and 2cache  ', ['cache'])).toBe('…then <mark>CACHE2</mark> and 2cache');
    expect(snippet('Über Ärger: ärgerlich, Ärgernis.', ['arger'], 8)).toBe('Über <mark>Ärger</mark>: <mark>ärgerlich</mark>, <mark>Ärgernis</mark>.');
  });

  it('marks and scores by the informative words, filler only when the query holds nothing else', () => {
    // "and", "with", "on" are on every line: marked, they say nothing about why the section matched.
    expect(snippet('Deploy with Netlify and Vercel on push.', ['deploy', 'with', 'netlify', 'and', 'on'], 8)).toBe(
      '<mark>Deploy</mark> with <mark>Netlify</mark> and Vercel on push.',
    );
    expect(sectionWords(['How', 'do', 'I', 'deploy', 'with', 'Netlify'])).toEqual(['depl', 'netli']);
    // A query of filler alone still marks it.
    expect(snippet('Sign in with a passkey.', ['with'])).toBe('…in <mark>with</mark> a passkey.');
    // The section chosen is the one holding the informative word, not the one saying the filler most.
    const json = sectionsJson([
      { heading: 'With and on', anchor: 'with-and-on', content: 'With this and that, on and on, with everything.' },
      { heading: 'Adapters', anchor: 'adapters', content: 'Deploy with an adapter.' },
    ]);
    expect(matchingSections(json, sectionWords(['deploy', 'with', 'and', 'on']), 3).map((s) => s.anchor)).toEqual(['adapters']);
  });

  it('is safe to render: markup in the text is escaped, only the marks are tags', () => {
    expect(snippet('Never <b>run</b> alert("x") here', ['alert'], 8)).toBe('Never &lt;b&gt;run&lt;/b&gt; <mark>alert</mark>(&quot;x&quot;) here');
  });
});
