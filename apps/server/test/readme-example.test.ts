import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const workspace = join(appDir, '..', '..');

/** Runs a README's example as written (from this app, which depends on every package) and returns its output. */
function runExample(example: string): string {
  const script = join(appDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(script, example);
  try {
    return execFileSync(process.execPath, [script], { encoding: 'utf8', cwd: appDir }).trim();
  } finally {
    rmSync(script, { force: true });
  }
}

/** What the example says it prints: the `// …` comment after each console.log line. */
function promisedOutput(example: string): string {
  return [...example.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]).join('\n');
}

it('the library example in the root README runs as written and prints what it says', () => {
  const readme = readFileSync(join(workspace, 'README.md'), 'utf8');
  const example = /## Embedding memsvc in your own agent[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example, 'README example block').toBeDefined();
  const promised = /\/\/ (created duplicate .*)/.exec(example ?? '')?.[1];
  expect(runExample(example ?? '')).toBe(promised);
});

it('the "Testing your agent" example in packages/core/README.md runs as written and prints what it says', () => {
  const readme = readFileSync(join(workspace, 'packages', 'core', 'README.md'), 'utf8');
  const example = /## Testing your agent[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const promised = promisedOutput(example);
  expect(promised, 'the example says what it prints').not.toBe('');
  expect(runExample(example)).toBe(promised);
});

describe('package README examples', () => {
  it.each([
    'access',
    'auth',
    'core',
    'embeddings',
    'mcp-tools',
    'runtime',
    'store-pg',
  ])('packages/%s/README.md runs and prints what it says', (name) => {
    const readme = readFileSync(join(workspace, 'packages', name, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const promised = promisedOutput(example);
    expect(promised, 'the example says what it prints').not.toBe('');
    expect(runExample(example)).toBe(promised);
  });
});
