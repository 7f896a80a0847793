import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** Every name a package's public index exports, values and types alike, sorted. */
function exportedNames(packageDirectory: string): string[] {
  const index = readFileSync(join(root, packageDirectory, 'src', 'index.ts'), 'utf8');
  const names = [...index.matchAll(/export (type )?\{([^}]*)\}/g)].flatMap((match) =>
    (match[2] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => (match[1] || name.startsWith('type ') ? `type ${name.replace(/^type /, '')}` : name)),
  );
  expect(index.replace(/export (type )?\{[^}]*\} from '[^']+';/g, '').trim(), `${packageDirectory}: only named re-exports`).toBe('');
  return names.sort((a, b) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, '')));
}

// What users of the library may rely on. A change here is a change to the public API: review it,
// and record it in the package's changeset.
describe('the public API of the library packages', () => {
  it.each([
    'core',
    'access',
    'config',
    'import-export',
    'store-pg',
  ])('@memsvc/%s exports what its users need, nothing else', async (name) => {
    await expect(`${exportedNames(`packages/${name}`).join('\n')}\n`).toMatchFileSnapshot(`./public-api/${name}.txt`);
  });
});
