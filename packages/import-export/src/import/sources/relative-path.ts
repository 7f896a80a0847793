/**
 * Paths inside an imported folder, as the caller lists them. Pure string work: the caller has
 * already resolved the folder (and refused symlinks out of it); here a path that climbs out
 * (`..`) or is absolute is simply not a file of the folder, so no source selects it.
 */

/** Forward slashes, no leading `./`; null when the path is absolute, climbs out or is empty. */
export function normalizeRelativePath(path: string): string | null {
  const slashed = path.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed)) return null;
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..')) return null;
  return segments.join('/');
}

/** The folder part of a normalized path, `''` at the root. */
export function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The last segment of a normalized path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The name without its last extension: `testing.instructions.md` → `testing.instructions`. */
export function stem(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

/** Folders that hold dependencies or version control, never an agent's memory. */
const NEVER_READ = new Set(['node_modules', '.git', '.hg', '.svn']);

/** True when a folder of the path is never read. */
export function inIgnoredFolder(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((segment) => NEVER_READ.has(segment));
}
