/** A memory id as the stores issue it (UUIDv7); the route's pattern, so any other path segment is not a memory page. */
export const MEMORY_ID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const MEMORY_ID = new RegExp(`^${MEMORY_ID_PATTERN}$`);

/** Whether a value is a memory id, and so safe to put in a URL path. */
export function isMemoryId(value: string): boolean {
  return MEMORY_ID.test(value);
}

/** The page of a memory, or one of its actions (`/edit`, `/pin`, …). */
export function memoryPath(basePath: string, id: string, action?: 'edit' | 'pin' | 'promote' | 'delete' | 'restore' | 'erase'): string {
  return `${basePath}/memories/${id}${action ? `/${action}` : ''}`;
}
