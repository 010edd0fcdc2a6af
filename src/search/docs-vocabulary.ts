/**
 * The built-in docs vocabulary (the `vocabulary` option, docs/ranking.md "A docs vocabulary"): what readers type beside
 * what docs write. Applied as `synonyms` are (phrases, both rankings, when searching: no re-index), a page holding
 * the docs' word counting as holding the reader's, a little below a page holding the word as typed.
 */

/** Two-way: a word of either group stands also for the other's words (no word here has a second common sense). */
const EQUIVALENT: [readers: string[], docs: string[]][] = [
  [['upgrade'], ['migrate', 'migration']],
  [['install'], ['set up', 'setup']],
  [['remove'], ['delete']],
  [['env'], ['environment']],
  [['config'], ['configuration']],
  [['auth'], ['authentication']],
  [['login', 'signin'], ['log in', 'sign in']],
  [['signup'], ['sign up', 'register']],
  [['i18n'], ['internationalization']],
  [['l10n'], ['localization']],
  [['a11y'], ['accessibility']],
  [['js'], ['javascript']],
  [['ts'], ['typescript']],
  [['db'], ['database']],
  [['repo'], ['repository']],
  [['dir', 'folder'], ['directory']],
  [['colour'], ['color']],
  [['behaviour'], ['behavior']],
  [['customise'], ['customize']],
  [['initialise'], ['initialize']],
  [['optimise'], ['optimize']],
];

/**
 * One way: what a reader types stands also for the docs' words, not the other way round, where the docs' word has
 * other senses ("show" a window, "list" of options, "log" of a build, "options" of every function).
 */
const READERS: [reader: string[], docs: string[]][] = [
  [['print'], ['show', 'list', 'log']],
  [['hotkey', 'hotkeys', 'keybinding'], ['keyboard shortcut']],
  [['speed', 'faster', 'slow'], ['performance']],
];

/** Forms Porter's stemmer does not bring to their word: irregular past forms and participles. */
const IRREGULAR: Record<string, string> = {
  overridden: 'override', written: 'write', built: 'build', hidden: 'hide', chosen: 'choose', thrown: 'throw',
  sent: 'send', shown: 'show', taken: 'take', found: 'find', broken: 'break', given: 'give', kept: 'keep', ran: 'run',
};

/**
 * The built-in vocabulary's words and phrases for the query's terms, none of them a word typed: for each term that
 * `replaced` (the `synonyms` option) does not give its own, its entry and its version spelled the other way.
 */
export function vocabularyFor(terms: string[], replaced: Readonly<Record<string, readonly string[]>>): string[] {
  const typed = new Set(terms);
  const found = terms.flatMap((term) => {
    if (Object.hasOwn(replaced, term)) return [];
    const version = versionSpelling(term);
    return [...(Object.hasOwn(VOCABULARY, term) ? VOCABULARY[term]! : []), ...(version ? [version] : [])];
  });
  return [...new Set(found)].filter((word) => !typed.has(word));
}

/** The built-in vocabulary as `synonyms` are given: a word, and the words and phrases it also stands for. */
function docsVocabulary(): Record<string, string[]> {
  const vocabulary: Record<string, string[]> = {};
  const add = (word: string, alike: string[]) => {
    if (word.includes(' ')) return;
    const known = new Set(vocabulary[word] ?? []);
    for (const a of alike) if (a !== word) known.add(a);
    vocabulary[word] = [...known].slice(0, 10);
  };
  for (const [readers, docs] of EQUIVALENT) {
    for (const word of readers) add(word, docs);
    for (const word of docs) add(word, readers);
  }
  for (const [readers, docs] of READERS) for (const word of readers) add(word, docs);
  for (const [form, word] of Object.entries(IRREGULAR)) add(form, [word]);
  return vocabulary;
}

const VOCABULARY = docsVocabulary();

/**
 * A version number typed bare or with its `v` (`7`, `v7`, `22`, `5.2`): the other way of writing it. A whole number of
 * three digits or more is a status code or a size (`404`, `1024`), not a version.
 */
export function versionSpelling(word: string): string | undefined {
  const bare = /^v?(\d{1,2}(?:\.\d+)*)$/.exec(word)?.[1];
  return bare === undefined ? undefined : word.startsWith('v') ? bare : `v${bare}`;
}
