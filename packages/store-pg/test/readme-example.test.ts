import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..');
const readme = readFileSync(join(packageDir, '..', '..', 'README.md'), 'utf8');

it('the library example in the root README runs as written', () => {
  const example = /## Using the store from your own code\s+```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example, 'README example block').toBeDefined();
  // Inside the package directory, `@memsvc/store-pg` resolves to this package (self-reference).
  const script = join(packageDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(script, example ?? '');
  try {
    const output = execFileSync(process.execPath, [script], { encoding: 'utf8', cwd: packageDir });
    expect(output.trim()).toMatch(/^Alice prefers tabs 0\.99\d+$/);
  } finally {
    rmSync(script, { force: true });
  }
});
