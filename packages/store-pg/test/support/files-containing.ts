import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file under `directory` whose raw bytes contain any of `needles` (UTF-8, as PostgreSQL
 * stores text), as `<path relative to directory>: <needle label>`; sockets and the like are skipped.
 */
export function filesContaining(directory: string, needles: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (stat?.isFile()) {
        const bytes = readFileSync(path);
        for (const [label, needle] of Object.entries(needles))
          if (bytes.includes(needle)) found.push(`${relative(directory, path)}: ${label}`);
      }
    }
  };
  walk(directory);
  return found.sort();
}
