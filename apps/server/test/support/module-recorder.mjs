// Preloaded (`node --import`) into a memsvc process under test: writes the URL of every module
// the process loads to MEMSVC_TEST_MODULE_LOG, one per line. ES modules are seen by a load hook
// (which runs on the loader's own thread); modules loaded with require() — which the hook does
// not see on Node 20 — are added from the require cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.MEMSVC_TEST_MODULE_LOG;
if (file) {
  register('./module-recorder-hooks.mjs', import.meta.url, { data: { file } });
  const requireCache = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const required = Object.keys(requireCache).map((path) => pathToFileURL(path).href);
    appendFileSync(file, required.map((url) => `${url}\n`).join(''));
  });
}
