import type { TenantId } from '../domain/tenant.js';
import type { ImportLedgerEntry, ImportLedgerStore } from '../ports/import-ledger-store.js';

/** The import ledger in a Map, for the in-memory engine (tests, examples). */
export class InMemoryImportLedger implements ImportLedgerStore {
  private readonly rows = new Map<string, ImportLedgerEntry>();

  async entries(tenant: TenantId, source: string, root: string): Promise<readonly ImportLedgerEntry[]> {
    const prefix = JSON.stringify([tenant, source, root]).slice(0, -1);
    return [...this.rows.entries()].filter(([key]) => key.startsWith(`${prefix},`)).map(([, entry]) => entry);
  }

  async record(tenant: TenantId, entry: ImportLedgerEntry): Promise<void> {
    this.rows.set(JSON.stringify([tenant, entry.source, entry.root, entry.file, entry.section]), { ...entry });
  }
}
