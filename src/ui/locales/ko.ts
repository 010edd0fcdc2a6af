import type { SiteSearchStrings } from '../strings.js';

export default {
  placeholder: '검색',
  searching: '검색 중…',
  noResults: '“{query}”에 대한 결과가 없습니다',
  showingResultsFor: '{suggestion}에 대한 결과 표시 중',
  oneResult: '결과 1개',
  results: '결과 {count}개',
  moreResults: '결과 더 보기',
  all: '전체',
  filterByType: '유형별 필터',
  filterByTag: '태그별 필터',
  resultsLabel: '검색 결과',
  unavailable: '검색을 사용할 수 없습니다.',
  tooLong: '검색어가 너무 깁니다. 줄여 주세요.',
  recent: '최근 검색',
  removeRecent: '최근 검색에서 삭제 (Delete)',
} satisfies SiteSearchStrings;
