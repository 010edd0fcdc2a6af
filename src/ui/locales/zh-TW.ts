import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: '搜尋',
  searching: '搜尋中…',
  noResults: '找不到「{query}」的結果',
  showingResultsFor: '顯示 {suggestion} 的結果',
  oneResult: '1 個結果',
  results: '{count} 個結果',
  moreResults: '更多結果',
  all: '全部',
  filterByType: '依類型篩選',
  filterByTag: '依標籤篩選',
  resultsLabel: '搜尋結果',
  unavailable: '搜尋目前無法使用。',
  tooLong: '搜尋內容過長，請縮短。',
  recent: '最近的搜尋',
  removeRecent: '從最近的搜尋中移除 (Delete)',
} satisfies SiteSearchStrings;
