import type { Secret } from '@memsvc/access';
import { adminTokenDenial } from '@memsvc/auth';
import { auditLog, type Logger } from '@memsvc/runtime';

/** The form field the maintenance forms carry the admin token in. */
export const ADMIN_TOKEN_FIELD = 'adminToken';

/** Why a maintenance action was refused, as the page's error code. */
export type AdminTokenRefusal = 'admin-disabled' | 'admin-token';

/**
 * The operations page's maintenance actions (queue, cancel, retry a reindex) are the admin
 * tools', so they need what the tools need: the admin scope opens the page, and MCP_ADMIN_TOKEN,
 * typed into the form and compared in constant time, opens the action. Every attempt is logged
 * as the tools' are (spec §5.6), with the viewer's audit actor and never the token.
 */
export function adminTokenCheck(adminToken: Secret | undefined, logger: Logger) {
  const audit = auditLog(logger);
  return (form: Readonly<Record<string, unknown>>, action: string, actor: string): AdminTokenRefusal | undefined => {
    const presented = typeof form[ADMIN_TOKEN_FIELD] === 'string' ? (form[ADMIN_TOKEN_FIELD] as string) : '';
    const reason = adminTokenDenial(adminToken, presented);
    const tool = `dashboard:${action}`;
    if (reason === undefined) {
      audit.info({ event: 'admin_auth_ok', tool, principal: actor }, 'admin_auth_ok');
      return undefined;
    }
    audit.warn({ event: 'admin_auth_denied', tool, reason, principal: actor }, 'admin_auth_denied');
    return reason === 'admin-tools-disabled' ? 'admin-disabled' : 'admin-token';
  };
}
