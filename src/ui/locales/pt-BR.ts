import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Pesquisar',
  searching: 'Pesquisando…',
  noResults: 'Nenhum resultado para “{query}”',
  showingResultsFor: 'Mostrando resultados para {suggestion}',
  oneResult: '1 resultado',
  results: '{count} resultados',
  moreResults: 'Mais resultados',
  all: 'Todos',
  filterByType: 'Filtrar por tipo',
  filterByTag: 'Filtrar por tag',
  resultsLabel: 'Resultados da pesquisa',
  unavailable: 'A pesquisa está indisponível.',
  tooLong: 'A pesquisa é longa demais: encurte-a.',
  recent: 'Pesquisas recentes',
  removeRecent: 'Remover das pesquisas recentes (Delete)',
} satisfies SiteSearchStrings;
