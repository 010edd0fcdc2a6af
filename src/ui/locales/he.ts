import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'חיפוש',
  searching: 'מחפש…',
  noResults: 'אין תוצאות עבור „{query}”',
  showingResultsFor: 'מציג תוצאות עבור {suggestion}',
  oneResult: 'תוצאה אחת',
  results: '{count} תוצאות',
  moreResults: 'תוצאות נוספות',
  all: 'הכול',
  filterByType: 'סינון לפי סוג',
  filterByTag: 'סינון לפי תגית',
  resultsLabel: 'תוצאות חיפוש',
  unavailable: 'החיפוש אינו זמין.',
  tooLong: 'החיפוש ארוך מדי: קצרו אותו.',
  recent: 'חיפושים אחרונים',
  removeRecent: 'הסרה מהחיפושים האחרונים (Delete)',
} satisfies SiteSearchStrings;
