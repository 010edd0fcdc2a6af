import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Buscar',
  searching: 'Buscando…',
  noResults: 'No hay resultados para «{query}»',
  showingResultsFor: 'Mostrando resultados para {suggestion}',
  oneResult: '1 resultado',
  results: '{count} resultados',
  moreResults: 'Más resultados',
  all: 'Todos',
  filterByType: 'Filtrar por tipo',
  filterByTag: 'Filtrar por etiqueta',
  resultsLabel: 'Resultados de búsqueda',
  unavailable: 'La búsqueda no está disponible.',
  tooLong: 'La búsqueda es demasiado larga: acórtala.',
  recent: 'Búsquedas recientes',
  removeRecent: 'Quitar de las búsquedas recientes (Supr)',
} satisfies SiteSearchStrings;
