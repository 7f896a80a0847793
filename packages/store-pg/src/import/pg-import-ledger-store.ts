import type { ImportLedgerEntry, ImportLedgerStore, TenantId } from '@memsvc/core';
import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** The import ledger in `memory_import_ledger` (migration 0011); every statement names its tenant. */
export class PgImportLedgerStore implements ImportLedgerStore {
  constructor(private readonly db: Kysely<MemsvcDatabase>) {}

  async entries(tenant: TenantId, source: string, root: string): Promise<readonly ImportLedgerEntry[]> {
    const rows = await this.db
      .selectFrom('memory_import_ledger')
      .selectAll()
      .where('user_id', '=', tenant)
      .where('source', '=', source)
      .where('root', '=', root)
      .execute();
    return rows.map((row) => ({
      source: row.source,
      root: row.root,
      file: row.file,
      section: row.section,
      memoryId: row.memory_id,
      fingerprint: row.fingerprint,
      memoryVersion: row.memory_version,
      importedAt: row.imported_at,
    }));
  }

  async record(tenant: TenantId, entry: ImportLedgerEntry): Promise<void> {
    const values = {
      memory_id: entry.memoryId,
      fingerprint: entry.fingerprint,
      memory_version: entry.memoryVersion,
      imported_at: entry.importedAt,
    };
    await this.db
      .insertInto('memory_import_ledger')
      .values({ user_id: tenant, source: entry.source, root: entry.root, file: entry.file, section: entry.section, ...values })
      .onConflict((conflict) => conflict.columns(['user_id', 'source', 'root', 'file', 'section']).doUpdateSet(values))
      .execute();
  }
}
