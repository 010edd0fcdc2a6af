/** `site-search/indexer`: Markdown/MDX to index rows, and pushes to SQLite or D1. Node only. */
export { collectDocuments, type SourceFile } from './collect.js';
export { parseDocument, type IndexDocument, type IndexWarning, type ParsedFile } from './document.js';
export {
  buildIndex,
  readDocuments,
  newBuildStats,
  type BuildOptions,
  type BuildResult,
  type BuildStats,
  type FileReader,
  type FileResult,
  type FileTask,
} from './build.js';
export { readInWorkers } from './parallel.js';
export { markdownToText, markdownSections, firstHeading, type SectionOptions, type TextSection, type TextWarning } from './text.js';
export { pushIndex, writeIndex, type PushResult, type PushTarget } from './push.js';
export { vocabularyOf, Vocabulary, type VocabularyWord } from './vocabulary.js';
export { pushStatements, sqlLiteral, toSqlFile, D1_MAX_STATEMENT_BYTES } from './sql.js';
export { checkDatabaseConfig, type DatabaseCheck } from './wrangler.js';
export { pathToSlug, slugToUrl } from './slug.js';
