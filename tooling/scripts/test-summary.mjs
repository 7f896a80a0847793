#!/usr/bin/env node
// Prints what the last `vitest run` did: how many tests ran on each storage engine (and on core's
// in-memory store, which runs the store contract suite too), and one closing line
// "N passed, N failed, N skipped" that any CI log reader understands.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../../.tmp/vitest-report.json', import.meta.url), 'utf8'));
const tests = report.testResults.flatMap((file) => file.assertionResults);
const count = (predicate) => tests.filter(predicate).length;
const passed = count((t) => t.status === 'passed');
const failed = count((t) => t.status === 'failed');
const skipped = tests.length - passed - failed;

for (const engine of ['pglite', 'postgres', 'in-memory']) {
  const onEngine = tests.filter((t) => t.ancestorTitles.some((title) => title.includes(`[${engine}]`)));
  const ran = onEngine.filter((t) => t.status === 'passed' || t.status === 'failed').length;
  console.log(
    `storage suite on ${engine}: ${ran} run, ${onEngine.filter((t) => t.status === 'passed').length} passed, ${onEngine.length - ran} skipped`,
  );
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
