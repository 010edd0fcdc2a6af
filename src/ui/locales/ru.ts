import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Поиск',
  searching: 'Поиск…',
  noResults: 'Ничего не найдено по запросу «{query}»',
  showingResultsFor: 'Показаны результаты для {suggestion}',
  oneResult: 'Результатов: 1',
  results: 'Результатов: {count}',
  moreResults: 'Ещё результаты',
  all: 'Все',
  filterByType: 'Фильтр по типу',
  filterByTag: 'Фильтр по тегу',
  resultsLabel: 'Результаты поиска',
  unavailable: 'Поиск недоступен.',
  tooLong: 'Слишком длинный запрос: сократите его.',
  recent: 'Недавние запросы',
  removeRecent: 'Удалить из недавних запросов (Delete)',
} satisfies SiteSearchStrings;
