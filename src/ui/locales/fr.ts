import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Rechercher',
  searching: 'Recherche…',
  noResults: 'Aucun résultat pour « {query} »',
  showingResultsFor: 'Résultats pour {suggestion}',
  oneResult: '1 résultat',
  results: '{count} résultats',
  moreResults: 'Plus de résultats',
  all: 'Tous',
  filterByType: 'Filtrer par type',
  filterByTag: 'Filtrer par étiquette',
  resultsLabel: 'Résultats de recherche',
  unavailable: 'La recherche est indisponible.',
  tooLong: 'Cette recherche est trop longue : raccourcissez-la.',
  recent: 'Recherches récentes',
  removeRecent: 'Retirer des recherches récentes (Suppr)',
} satisfies SiteSearchStrings;
