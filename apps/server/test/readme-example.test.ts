import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const readme = readFileSync(join(appDir, '..', '..', 'README.md'), 'utf8');

it('the library example in the root README runs as written and prints what it says', () => {
  const example = /## Embedding memsvc in your own agent[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example, 'README example block').toBeDefined();
  const promised = /\/\/ (created duplicate .*)/.exec(example ?? '')?.[1];
  // This app depends on every package the example imports, so they resolve from here.
  const script = join(appDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(script, example ?? '');
  try {
    const output = execFileSync(process.execPath, [script], { encoding: 'utf8', cwd: appDir });
    expect(output.trim()).toBe(promised);
  } finally {
    rmSync(script, { force: true });
  }
});
