import { MEMORY_MARKERS, type MemoryMarker, type MemoryTier } from '@memsvc/core';

/** What the memories page was asked for, read leniently from the query string: an unknown value is ignored, never an error page. */
export interface MemoryFilters {
  readonly q: string;
  readonly tier: MemoryTier | undefined;
  readonly scope: string;
  readonly tags: readonly string[];
  readonly marker: MemoryMarker | undefined;
  readonly from: string;
  readonly to: string;
  readonly cursor: string | undefined;
}

export function readMemoryFilters(query: (name: string) => string | undefined): MemoryFilters {
  const text = (name: string, max = 256) => (query(name) ?? '').trim().slice(0, max);
  const tier = query('tier');
  const marker = query('marker');
  return {
    q: text('q', 2048),
    tier: tier === 'stm' || tier === 'ltm' ? tier : undefined,
    scope: text('scope'),
    tags: text('tags', 2048)
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '')
      .slice(0, 50),
    marker: (MEMORY_MARKERS as readonly string[]).includes(marker ?? '') ? (marker as MemoryMarker) : undefined,
    from: dateText(query('from')),
    to: dateText(query('to')),
    cursor: /^[0-9a-f-]{36}$/.test(query('cursor') ?? '') ? query('cursor') : undefined,
  };
}

/** A `YYYY-MM-DD` date from a date input, or ''. */
function dateText(value: string | undefined): string {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : '';
}

/** The start of a `from` day and the end of a `to` day, in UTC. */
export function dateRange(filters: MemoryFilters): { createdFrom?: Date; createdTo?: Date } {
  return {
    ...(filters.from ? { createdFrom: new Date(`${filters.from}T00:00:00.000Z`) } : {}),
    ...(filters.to ? { createdTo: new Date(`${filters.to}T23:59:59.999Z`) } : {}),
  };
}

/** The filters as query parameters (for the next page's link and the form's values). */
export function filterQuery(filters: MemoryFilters): Record<string, string | undefined> {
  return {
    q: filters.q,
    tier: filters.tier,
    scope: filters.scope,
    tags: filters.tags.join(','),
    marker: filters.marker,
    from: filters.from,
    to: filters.to,
  };
}
