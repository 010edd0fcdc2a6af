import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: '搜索',
  searching: '正在搜索…',
  noResults: '没有找到“{query}”的结果',
  showingResultsFor: '显示 {suggestion} 的结果',
  oneResult: '1 个结果',
  results: '{count} 个结果',
  moreResults: '更多结果',
  all: '全部',
  filterByType: '按类型筛选',
  filterByTag: '按标签筛选',
  resultsLabel: '搜索结果',
  unavailable: '搜索暂不可用。',
  tooLong: '搜索内容过长，请缩短。',
  recent: '最近搜索',
  removeRecent: '从最近搜索中删除 (Delete)',
} satisfies SiteSearchStrings;
