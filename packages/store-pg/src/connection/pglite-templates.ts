import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { TarballBlob } from './tarball-blob.js';

const gzipAsync = promisify(gzip);
/** Where a POSIX tar header says "ustar". */
const TAR_MAGIC_OFFSET = 257;
const gunzipAsync = promisify(gunzip);

/** What a process that keeps templates in memory holds: each file's tarball, and the file it came from. */
const keptInMemory = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly tarball: Uint8Array<ArrayBuffer> }>();

export interface PgliteTemplatesOptions {
  /**
   * Keep the decompressed template in this process for the next new database (~42 MB), instead of
   * reading and decompressing the file again (~0.5 s on a 2-core machine): for a process that
   * opens many new embedded databases, such as a test suite. A server opens one and leaves it off.
   */
  readonly keepInMemory?: boolean;
}

/**
 * Where new embedded databases start from. A new PGlite database runs initdb inside WebAssembly
 * (2–4 s on a 2-core machine) and then memsvc's migrations (~0.5 s); loading a tarball of a
 * database that went through both takes ~0.5 s. The first new database a given build creates is
 * saved here (gzip level 1: ~5 MB; decompressing costs ~0.1–0.5 s) under a name that changes with
 * everything that shapes it (see `embeddedSchemaFingerprint`), so a template from another build is
 * never loaded, only left behind. Nothing of a tenant is ever in one: it is taken right after the
 * migrations of an empty database.
 */
export class PgliteTemplates {
  readonly file: string;
  readonly #keepInMemory: boolean;

  constructor(
    readonly directory: string,
    fingerprint: string,
    options: PgliteTemplatesOptions = {},
  ) {
    this.file = join(directory, `pglite-${fingerprint}.tar.gz`);
    this.#keepInMemory = options.keepInMemory ?? false;
  }

  /** The template's tarball, or undefined when this build has none yet. A damaged file throws. */
  async read(): Promise<Blob | undefined> {
    let file: { size: number; mtimeMs: number };
    try {
      file = await stat(this.file);
    } catch (error) {
      // No template yet, or no such directory (saving reports why).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    // A file replaced since (a damaged template made again) has another size or time: read anew.
    const kept = keptInMemory.get(this.file);
    if (kept && kept.size === file.size && kept.mtimeMs === file.mtimeMs) return new TarballBlob(kept.tarball);

    const compressed = await readFile(this.file);
    const decompressed = await gunzipAsync(compressed);
    // PGlite takes what is not a tar archive for a compressed one and then fails outside the
    // promise it returns (an unhandled rejection), so the archive's magic is checked here first.
    if (decompressed.subarray(TAR_MAGIC_OFFSET, TAR_MAGIC_OFFSET + 5).toString('latin1') !== 'ustar') {
      throw new Error(`${this.file} holds no tar archive`);
    }
    // zlib's output is never a SharedArrayBuffer; a view of it, not a copy.
    const tarball = new Uint8Array(decompressed.buffer as ArrayBuffer, decompressed.byteOffset, decompressed.byteLength);
    if (this.#keepInMemory) keptInMemory.set(this.file, { size: compressed.byteLength, mtimeMs: file.mtimeMs, tarball });
    return new TarballBlob(tarball);
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
