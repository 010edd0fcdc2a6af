import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Cerca',
  searching: 'Ricerca in corso…',
  noResults: 'Nessun risultato per «{query}»',
  showingResultsFor: 'Risultati per {suggestion}',
  oneResult: '1 risultato',
  results: '{count} risultati',
  moreResults: 'Altri risultati',
  all: 'Tutti',
  filterByType: 'Filtra per tipo',
  filterByTag: 'Filtra per tag',
  resultsLabel: 'Risultati della ricerca',
  unavailable: 'La ricerca non è disponibile.',
  tooLong: 'La ricerca è troppo lunga: accorciala.',
  recent: 'Ricerche recenti',
  removeRecent: 'Rimuovi dalle ricerche recenti (Canc)',
} satisfies SiteSearchStrings;
