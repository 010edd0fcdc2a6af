// The closing line of scripts/test.sh, from Vitest's JSON report: "Tests: N passed, N failed, N skipped", and the exit
// status of the whole run. A suite can fail outside any test (a beforeAll that times out, a file that cannot be
// imported): Vitest then marks its tests skipped, not failed, and numFailedTests alone said "0 failed" for a failed run.
// Each file that failed without a failed test counts as one failure here, and is named. Errors outside any test (an
// unhandled rejection) are not in the JSON report at all, which then says success: true while Vitest exits 1:
// scripts/unhandled-errors-reporter.mjs writes them beside it (<report>.unhandled.json), and each counts as a failure.
//
// Usage: node scripts/test-summary.mjs <vitest-report.json> [vitest's exit status]
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, vitestStatus = '0'] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  console.log(`Tests: no report (${file ?? 'no path given'}): vitest did not finish; see its output above`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const outside = report.testResults
  .filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'))
  .map((f) => relative(process.cwd(), f.name));
const unhandledFile = `${file}.unhandled.json`;
const unhandled = existsSync(unhandledFile) ? JSON.parse(readFileSync(unhandledFile, 'utf8')) : [];
// A run Vitest calls unsuccessful (its report, or its exit status) has failed somewhere, whatever the counts say.
const counted = report.numFailedTests + outside.length + unhandled.length;
const failed = Math.max(counted, report.success === false || vitestStatus !== '0' ? 1 : 0);
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
console.log(
  `Tests: ${report.numPassedTests} passed, ${failed} failed` +
    (skipped ? `, ${skipped} skipped` : '') +
    (outside.length ? ` (failed outside any test: ${outside.join(', ')})` : '') +
    (unhandled.length ? ` (${unhandled.length} unhandled error${unhandled.length > 1 ? 's' : ''} outside any test: ${unhandled.join('; ')})` : '') +
    (failed > counted ? ` (Vitest exited ${vitestStatus} with no failure in its report: see its output above)` : ''),
);
process.exit(failed > 0 || vitestStatus !== '0' ? 1 : 0);
