import type { SessionRecord } from '@memsvc/access';
import type { CliContext } from '../cli-context.js';
import { parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-sessions';

/** `memsvc sessions list --user <id>`: a user's unexpired sessions, newest first; never a token. */
export async function listSessionsCommand(cli: CliContext, options: { readonly user: string; readonly json?: boolean }): Promise<void> {
  const userId = parseUserFlag(options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const sessions = await access.sessions.listActive(userId);
    if (options.json) {
      writeJsonLine(cli, sessions.map(sessionJson));
      return;
    }
    if (sessions.length === 0) {
      cli.stdout.write(`no live sessions for ${userId}\n`);
      return;
    }
    const rows = sessions.map((session) => [
      session.id,
      formatInstant(session.createdAt),
      formatInstant(session.expiresAt),
      formatInstant(session.revokedAt),
      session.ipAddress ?? '-',
      session.userAgent ?? '-',
    ]);
    cli.stdout.write(`${formatTable(['ID', 'CREATED', 'EXPIRES', 'REVOKED', 'IP', 'USER AGENT'], rows)}\n`);
  });
}

/**
 * `memsvc sessions revoke --user <id>`: ends every live session of a user at once, on every
 * replica from the next call (each token's jti goes on the denylist). With `memsvc keys revoke
 * --user` and `memsvc identities block` for each of their GitHub and Google accounts, this shuts a
 * person out (docs/operations.md).
 */
export async function revokeSessionsCommand(cli: CliContext, options: { readonly user: string }): Promise<void> {
  const userId = parseUserFlag(options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const ended = await access.sessions.endAll(userId);
    cli.stdout.write(`ended ${ended} session${ended === 1 ? '' : 's'} of ${userId}: their tokens are refused from now on\n`);
  });
}

function sessionJson(session: SessionRecord) {
  return {
    id: session.id,
    userId: session.userId,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    revokedAt: session.revokedAt?.toISOString() ?? null,
    userAgent: session.userAgent,
    ipAddress: session.ipAddress,
  };
}
