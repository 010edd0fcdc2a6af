import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: '検索',
  searching: '検索中…',
  noResults: '「{query}」に一致する結果はありません',
  showingResultsFor: '{suggestion} の検索結果を表示しています',
  oneResult: '1 件の結果',
  results: '{count} 件の結果',
  moreResults: 'さらに表示',
  all: 'すべて',
  filterByType: '種類で絞り込む',
  filterByTag: 'タグで絞り込む',
  resultsLabel: '検索結果',
  unavailable: '現在、検索は利用できません。',
  tooLong: '検索語が長すぎます。短くしてください。',
  recent: '最近の検索',
  removeRecent: '最近の検索から削除 (Delete)',
} satisfies SiteSearchStrings;
