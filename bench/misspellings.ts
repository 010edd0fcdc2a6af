/**
 * The misspelt and partly typed words the tests and the benchmark look up (issue 36): every one found in test/ and
 * bench/, and more of the kinds users type (a swap, a letter missing, doubled, or wrong, a word typed past its stem).
 */
export const MISSPELLINGS = [
  'cahce',
  'wrokers',
  'middelware',
  'typscript',
  'authentification',
  'authentcation',
  'paginashun',
  'pagnation',
  'integra',
  'integrat',
  'integratio',
  'wrnagler',
  'deploiem',
  'middlew',
  'confguration',
  'deploymnet',
  'compnent',
  'enviroment',
  'routng',
  'imgae',
  'colection',
  'serverles',
  'markdwon',
  'typescirpt',
  'redirct',
  'islnds',
];

/** Words spelt right, which the lookup must leave alone (and read no candidates for). */
export const WORDS = ['cache', 'workers', 'middleware', 'typescript', 'authentication', 'pagination', 'deploy'];
