import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: 'بحث',
  searching: 'جارٍ البحث…',
  noResults: 'لا توجد نتائج لـ «{query}»',
  showingResultsFor: 'عرض النتائج لـ {suggestion}',
  oneResult: 'نتيجة واحدة',
  results: 'عدد النتائج: {count}',
  moreResults: 'مزيد من النتائج',
  all: 'الكل',
  filterByType: 'التصفية حسب النوع',
  filterByTag: 'التصفية حسب الوسم',
  resultsLabel: 'نتائج البحث',
  unavailable: 'البحث غير متاح.',
  tooLong: 'عبارة البحث طويلة جدًا: اختصرها.',
  recent: 'عمليات البحث الأخيرة',
  removeRecent: 'إزالة من عمليات البحث الأخيرة (Delete)',
} satisfies SiteSearchStrings;
