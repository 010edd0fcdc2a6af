// A Vitest reporter beside the JSON one (scripts/test.sh): the JSON report has no place for errors thrown outside any
// test (an unhandled rejection, an error after a test ended), and says success: true when they are the only failure,
// though Vitest exits 1. This writes them next to that report, as <report>.unhandled.json (a list of messages), for
// scripts/test-summary.mjs to count.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onInit(vitest) {
    const out = vitest.config.outputFile;
    this.file = typeof out === 'object' && out?.json ? `${out.json}.unhandled.json` : undefined;
  }

  onTestRunEnd(_modules, unhandledErrors) {
    if (!this.file) return;
    writeFileSync(this.file, JSON.stringify(unhandledErrors.map((e) => `${e.name ?? 'Error'}: ${e.message ?? String(e)}`)));
  }
}
