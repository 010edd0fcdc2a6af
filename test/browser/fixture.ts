/**
 * A small "otter field guide" site for the browser tests: two source types (doc, post; posts take their source's emoji), enough "otter" pages for two
 * pages of results, a page with headed sections, and one hostile page whose text is markup and whose URL pattern is
 * `javascript:`. The hostile page is a `post` too, so the type allowlist stays `doc, post`. Some pages carry tags, words
 * no test searches for, for the filters with counts (`facets`).
 */
export const FIXTURE_FILES: Record<string, string> = {
  'search.config.json': JSON.stringify({
    database: 'browser-test',
    sources: [
      { dir: 'docs', type: 'doc', url: '/docs/:slug' },
      { dir: 'blog', type: 'post', url: '/blog/:slug', emoji: '📝' },
      { dir: 'hostile', type: 'post', url: 'javascript:window.__pwned=1//:slug' },
    ],
  }),
  'docs/basics.md': page('Otter basics', '🦦', 'Otters are semi-aquatic mammals with dense fur. The river otter and the sea otter are the species most people meet.', ['behaviour']),
  'docs/habitat.md': `---\ntitle: Habitat\nemoji: 🌊\n---\nWhere to look for them.\n\n## Rivers and lakes\n\nRiver otters share quiet rivers with beaver dams and reed beds.\n\n## Coastal waters\n\nSea otters float in kelp forests along rocky coasts.\n`,
  'docs/feeding.md': page('Feeding', '🐟', 'An otter eats fish, crabs and frogs, and a sea otter cracks shellfish open on a stone.'),
  'docs/tracking.md': page('Tracking otters', '🔭', 'Otter tracks show five toes; spraints on rocks mark an otter territory.', ['fieldwork']),
  'docs/photography.md': page('Photographing otters', '📷', 'Wait downwind at dawn: an otter has a keen nose and poor patience for photographers.', ['fieldwork']),
  'docs/conservation.md': page('Conservation status', '🛡️', 'The Eurasian otter recovered once rivers were cleaned and hunting stopped.'),
  'docs/equipment.md': page('Field equipment', '🎒', 'Binoculars, a notebook and waterproof boots are all an otter watcher needs.'),
  'blog/spring-count.md': post('Spring otter count 2026', '2026-04-12', 'Volunteers counted forty otters along the river this spring, the best count in a decade.', ['survey', 'uk']),
  'blog/thames.md': post('Otters return to the Thames', '2025-11-03', 'After decades away, otters have been seen in the Thames near the city again.', ['uk']),
  'blog/sea-otters.md': post('A week with sea otters', '2025-08-20', 'Seven days in a kayak among sea otters, rafting together in the kelp.', ['pacific']),
  'blog/holding-hands.md': post('Why otters hold hands', '2025-02-14', 'Sea otters hold paws while they sleep so the current does not drift them apart.', ['pacific', 'behaviour']),
  // Tags a careless author writes (issue 44, item 2), on pages no other test searches: a comma inside a tag, café in
  // NFD on one page and NFC on the other, a zero-width space and a right-to-left override, a Chinese tag.
  'docs/stoat-winter.md': '---\ntitle: Stoats in winter\ntags: ["tag,with,commas", "cafe\u0301", "zero\\u200bwidth", "部署指南"]\n---\nA stoat turns white in winter.\n',
  'docs/stoat-summer.md': '---\ntitle: Stoats in summer\ntags: ["caf\u00e9", "\\u202ereversed"]\n---\nA stoat is brown in summer.\n',
  'hostile/hostile.md': `---\ntitle: '<img src=x onerror="window.__pwned=2"> Hostile page'\n---\nThis hostile page documents markup as text: \`<script>window.__pwned=1</script>\` and \`<img src=x onerror="window.__pwned=1">\` must never run.\n`,
};


function page(title: string, emoji: string, body: string, tags: string[] = []): string {
  return `---\ntitle: ${title}\nemoji: ${emoji}\n${tagLine(tags)}---\n${body}\n`;
}

function post(title: string, date: string, body: string, tags: string[] = []): string {
  return `---\ntitle: ${title}\ndate: ${date}\n${tagLine(tags)}---\n${body}\n`;
}

function tagLine(tags: string[]): string {
  return tags.length ? `tags: [${tags.join(', ')}]\n` : '';
}
