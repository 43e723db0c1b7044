// Reads Vitest's JSON report and prints the plain `N passed, N failed` line CI reads.
// A test file that failed outside its tests (a hook, a file-level check, an import error) counts as
// one failure even when all its tests passed. Exits 1 when anything failed, the report is missing,
// or no test ran.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`could not read ${file}: ${e.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failedTests = report.numFailedTests ?? 0;
const fileFailures = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = failedTests + fileFailures;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
