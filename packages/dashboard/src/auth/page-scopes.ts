import type { Scope } from '@memsvc/access';

/**
 * The scopes a dashboard request needs beyond being signed in, as the MCP tools doing the same
 * need them (TOOL_SCOPES): a page showing memories `memories:read`; an action changing one
 * `memories:write`; deleting `memories:delete`; a merge, or a contradiction resolved (which may
 * delete one side), both; erasing one for good `memories:delete`, as deleting, and checking an
 * erasure `memories:read`, as `verify_erasure`. A session exchanged for an API key holds that
 * key's scopes, so a read-only key gives a read-only dashboard. The access page (the viewer's own keys and
 * sessions) needs `keys:manage`, which a person signed in with GitHub or Google holds and a key
 * only when it was given it: an agent's key, or a session made from one, cannot mint a key that
 * outlives it or revoke another agent's; erasing all of the viewer's memories, on that page, needs
 * `memories:delete` too. The operations pages have their own guard (`admin`).
 * `path` is relative to the dashboard's base path.
 */
export function scopesFor(method: string, path: string): readonly Scope[] {
  if (path === '/access/erase-all') return ['keys:manage', 'memories:delete'];
  if (/^\/access(\/|$)/.test(path)) return ['keys:manage'];
  // The question before an erasure shows the memory and leads only to erasing it.
  if (/^\/memories\/[^/]+\/erase$/.test(path)) return method === 'POST' ? ['memories:delete'] : ['memories:read', 'memories:delete'];
  if (method !== 'POST') return /^\/(memories|review|erasures)(\/|$)/.test(path) ? ['memories:read'] : [];
  if (path === '/review/consolidation/approve' || path === '/review/contradictions/resolve') return ['memories:write', 'memories:delete'];
  if (/^\/memories\/delete$|^\/memories\/[^/]+\/delete$|^\/review\/fading\/delete$/.test(path)) return ['memories:delete'];
  if (/^\/memories\//.test(path)) return ['memories:write'];
  return [];
}
