import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
/** Where a POSIX tar header says "ustar". */
const TAR_MAGIC_OFFSET = 257;
const gunzipAsync = promisify(gunzip);

/**
 * Where new embedded databases start from. A new PGlite database runs initdb inside WebAssembly
 * (2–4 s on a 2-core machine) and then memsvc's migrations (~0.5 s); loading a tarball of a
 * database that went through both takes ~0.5 s. The first new database a given build creates is
 * saved here (gzip level 1: ~5 MB; decompressing costs ~0.1 s) under a name that changes with
 * everything that shapes it (see `embeddedSchemaFingerprint`), so a template from another build is
 * never loaded, only left behind. Nothing of a tenant is ever in one: it is taken right after the
 * migrations of an empty database.
 */
export class PgliteTemplates {
  readonly file: string;

  constructor(
    readonly directory: string,
    fingerprint: string,
  ) {
    this.file = join(directory, `pglite-${fingerprint}.tar.gz`);
  }

  /** The template's tarball, or undefined when this build has none yet. A damaged file throws. */
  async read(): Promise<Blob | undefined> {
    let compressed: Buffer;
    try {
      compressed = await readFile(this.file);
    } catch (error) {
      // No template yet, or no such directory (saving reports why).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    const tarball = await gunzipAsync(compressed);
    // PGlite takes what is not a tar archive for a compressed one and then fails outside the
    // promise it returns (an unhandled rejection), so the archive's magic is checked here first.
    if (tarball.subarray(TAR_MAGIC_OFFSET, TAR_MAGIC_OFFSET + 5).toString('latin1') !== 'ustar') {
      throw new Error(`${this.file} holds no tar archive`);
    }
    return new Blob([tarball]);
  }

  /**
   * Keeps `tarball` (a `dumpDataDir('none')`) as this build's template. Written beside the target
   * and renamed over it, so a concurrent reader sees a whole template or none, and two processes
   * saving at once both succeed (the last rename wins; both files are equivalent).
   */
  async save(tarball: Blob): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const compressed = await gzipAsync(Buffer.from(await tarball.arrayBuffer()), { level: 1 });
    const partial = `${this.file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
    try {
      await writeFile(partial, compressed, { mode: 0o600 });
      await rename(partial, this.file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
}

/**
 * A digest of what decides an empty migrated database's files: the PGlite and pgvector builds
 * (their package versions) and each migration's name and code. Any change to one names a new
 * template.
 */
export function embeddedSchemaFingerprint(migrations: Readonly<Record<string, { up: unknown }>>): string {
  const hash = createHash('sha256');
  for (const name of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']) hash.update(`${name}@${installedVersion(name)}\n`);
  for (const [name, migration] of Object.entries(migrations)) hash.update(`${name}\n${String(migration.up)}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The version in a dependency's package.json (found from its entry point: the file is not exported). */
function installedVersion(packageName: string): string {
  const require = createRequire(import.meta.url);
  let directory = dirname(require.resolve(packageName));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === packageName) return manifest.version ?? 'unknown';
    } catch {
      // not this directory
    }
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}
