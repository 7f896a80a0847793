import { type IdentityLink, identityLoginOutcome, parseIdentityAccount } from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import type { CliContext } from '../cli-context.js';
import { parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, terminalText, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-identities';
const ACCOUNT_ARGUMENT = '<account>';
const ACCOUNT_FIELD = { account: ACCOUNT_ARGUMENT } as const;

/** What the next login of a linked account would meet, as `identities list` shows it. */
type LinkState = 'blocked' | 'pinned' | 'active' | 'email-changed' | 'never-logged-in';

/**
 * `memsvc identities list [--user <id>]`: the GitHub and Google accounts linked to users, with
 * the email each last logged in with and whether its next login would be let in.
 */
export async function listIdentitiesCommand(cli: CliContext, options: { readonly user?: string; readonly json?: boolean }): Promise<void> {
  const userId = options.user === undefined ? undefined : parseUserFlag(options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const links = await access.identities.list(userId);
    if (options.json) {
      writeJsonLine(cli, links.map(linkJson));
      return;
    }
    if (links.length === 0) {
      cli.stdout.write(userId === undefined ? 'no linked accounts\n' : `no linked accounts for ${userId}\n`);
      return;
    }
    // The email and the name are whatever the provider said: shown without control characters.
    const rows = links.map((link) => [
      accountName(link),
      link.userId,
      stateOf(link),
      terminalText(link.email ?? '-'),
      terminalText(link.displayName ?? '-'),
      formatInstant(link.lastLoginAt),
      formatInstant(link.pinnedAt),
      formatInstant(link.blockedAt),
    ]);
    const header = ['ACCOUNT', 'USER', 'STATE', 'LAST EMAIL', 'NAME', 'LAST LOGIN', 'LINKED BY OPERATOR', 'BLOCKED'];
    cli.stdout.write(`${formatTable(header, rows)}\n`);
  });
}

/**
 * `memsvc identities link <account> --user <id>`: the operator links an account to a user, and it
 * logs in as that user whatever its email (an account never seen is linked ahead of its first
 * login). Moving it from another user ends that user's live GitHub and Google sessions.
 */
export async function linkIdentityCommand(cli: CliContext, account: string, options: { readonly user: string }): Promise<void> {
  // Checked before the database is opened; the access service parses it again as it acts.
  parseIdentityAccount(account, ACCOUNT_ARGUMENT);
  const userId = parseUserFlag(options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const change = await access.identities.link(account, userId, ACCOUNT_FIELD);
    const moved =
      change.previousUserId === null
        ? ''
        : ` (moved from ${change.previousUserId}${sessionsNote(change.sessionsEnded, change.previousUserId)})`;
    cli.stdout.write(`linked ${accountName(change.link)} to ${userId}${moved}: it logs in as ${userId} whatever its email\n`);
  });
}

/**
 * `memsvc identities unlink <account>`: forgets the link and ends its user's live GitHub and Google
 * sessions; the account's next login links it afresh by its verified email (block it to keep it out).
 */
export async function unlinkIdentityCommand(cli: CliContext, account: string): Promise<void> {
  // Checked before the database is opened; the access service parses it again as it acts.
  parseIdentityAccount(account, ACCOUNT_ARGUMENT);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const change = await access.identities.unlink(account, ACCOUNT_FIELD);
    if (!change) throw notLinked(account);
    cli.stdout.write(
      `unlinked ${accountName(change.link)} from ${change.link.userId}${sessionsNote(change.sessionsEnded, change.link.userId)}; ` +
        'its next login links it by its verified email (memsvc identities block keeps it out)\n',
    );
  });
}

/**
 * `memsvc identities block <account>` / `unblock <account>`: a blocked account cannot log in, and
 * blocking ends its user's live GitHub and Google sessions at once.
 */
export async function setIdentityBlockedCommand(cli: CliContext, account: string, blocked: boolean): Promise<void> {
  // Checked before the database is opened; the access service parses it again as it acts.
  parseIdentityAccount(account, ACCOUNT_ARGUMENT);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const change = await access.identities.setBlocked(account, blocked, ACCOUNT_FIELD);
    if (!change) throw notLinked(account);
    const name = `${accountName(change.link)} (user ${change.link.userId})`;
    cli.stdout.write(
      blocked
        ? `blocked ${name} since ${formatInstant(change.link.blockedAt)}: its logins are refused${sessionsNote(change.sessionsEnded, change.link.userId)}\n`
        : `unblocked ${name}: it may log in again while its verified email is ${change.link.userId}${change.link.pinnedAt ? ' (or whatever it is: linked by an operator)' : ''}\n`,
    );
  });
}

function notLinked(account: string): MemsvcError {
  return new MemsvcError('NOT_FOUND', `no linked account ${account} (memsvc identities list shows them)`, { field: ACCOUNT_ARGUMENT });
}

function accountName(link: IdentityLink): string {
  return `${link.provider}:${link.providerUserId}`;
}

function sessionsNote(count: number, userId: string): string {
  return count === 0 ? '' : `; ended ${count} GitHub/Google session${count === 1 ? '' : 's'} of ${userId}`;
}

function stateOf(link: IdentityLink): LinkState {
  if (link.blockedAt) return 'blocked';
  if (link.pinnedAt) return 'pinned';
  if (link.email === null) return 'never-logged-in';
  const outcome = identityLoginOutcome({ userId: link.userId, pinned: false, blocked: false }, link.email);
  return outcome.kind === 'linked' ? 'active' : 'email-changed';
}

function linkJson(link: IdentityLink) {
  return {
    account: accountName(link),
    provider: link.provider,
    providerUserId: link.providerUserId,
    userId: link.userId,
    state: stateOf(link),
    email: link.email,
    displayName: link.displayName,
    createdAt: link.createdAt.toISOString(),
    lastLoginAt: link.lastLoginAt?.toISOString() ?? null,
    pinnedAt: link.pinnedAt?.toISOString() ?? null,
    blockedAt: link.blockedAt?.toISOString() ?? null,
  };
}
