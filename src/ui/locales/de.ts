import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'Suchen',
  searching: 'Suche läuft…',
  noResults: 'Keine Ergebnisse für „{query}“',
  showingResultsFor: 'Ergebnisse für {suggestion}',
  oneResult: '1 Ergebnis',
  results: '{count} Ergebnisse',
  moreResults: 'Weitere Ergebnisse',
  all: 'Alle',
  filterByType: 'Nach Typ filtern',
  filterByTag: 'Nach Schlagwort filtern',
  resultsLabel: 'Suchergebnisse',
  unavailable: 'Die Suche ist nicht verfügbar.',
  tooLong: 'Diese Suche ist zu lang: bitte kürzen.',
  recent: 'Letzte Suchen',
  removeRecent: 'Aus den letzten Suchen entfernen (Entf)',
} satisfies SiteSearchStrings;
