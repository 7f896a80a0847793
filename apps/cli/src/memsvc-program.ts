import { DEFAULT_KEY_SCOPES, SCOPES } from '@memsvc/access';
import { IMPORT_SOURCES, SECRETS_POLICIES } from '@memsvc/import-export';
import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { CLI_VERSION } from './cli-version.js';
import { configCheckCommand } from './commands/config-check-command.js';
import { eraseMemoriesCommand, eraseUserCommand, verifyErasureCommand } from './commands/erase-command.js';
import { eraseCompactCommand } from './commands/erase-compact-command.js';
import { type ExportOptions, exportCommand } from './commands/export-command.js';
import { createGrantCommand, listGrantsCommand, revokeGrantCommand } from './commands/grants-command.js';
import {
  linkIdentityCommand,
  listIdentitiesCommand,
  setIdentityBlockedCommand,
  unlinkIdentityCommand,
} from './commands/identities-command.js';
import { type ImportOptions, importCommand } from './commands/import-command.js';
import { type CreateKeyOptions, createKeyCommand, listKeysCommand, revokeKeyCommand } from './commands/keys-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { addMemberCommand, createOrgCommand, listMembersCommand, listOrgsCommand } from './commands/orgs-command.js';
import { listSessionsCommand, revokeSessionsCommand } from './commands/sessions-command.js';
import { statusCommand } from './commands/status-command.js';
import { onContext, parseOnContext, runCommand } from './run-command.js';

/** The examples under `memsvc --help`: what a person does first. */
const MEMSVC_EXAMPLES = `
Examples:
  # What the database holds, on the embedded database the server uses (no server needed):
  DATABASE_URL=pglite://~/.memsvc DEPLOYMENT_PROFILE=lite memsvc status

  # An API key for an agent on PostgreSQL (printed once; only its hash is stored):
  DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc memsvc keys create --user alice --name laptop

  # Check the environment as the server would read it, secrets hidden:
  memsvc config check

  # Every memory of a user as JSONL:
  memsvc export --user alice --out alice.jsonl

memsvc <command> --help shows a command's flags. Exit codes: 0 done, 1 the operation failed, 2 wrong arguments or configuration.
`;

/**
 * `memsvc <command>` on a context (cli-context.ts): the executable runs it on the process, tests in
 * their own process. Resolves with the exit code: 0, 1 the operation failed, 2 wrong arguments or
 * configuration.
 */
export async function runMemsvc(argv: readonly string[], cli: CliContext): Promise<number> {
  // Commander exits 1 on a usage error (a missing required option, an unknown flag); memsvc's exit
  // codes keep 1 for a failed operation and 2 for wrong arguments (run-command.ts): onContext makes
  // it throw instead, and write to the context's streams, before any subcommand is added.
  const program = onContext(new Command(), cli)
    .name('memsvc')
    .description('Operator commands for memsvc. Configuration comes from the environment (DATABASE_URL, …), as for the server.')
    .version(CLI_VERSION, '-v, --version', 'print the version')
    .addHelpText('after', MEMSVC_EXAMPLES)
    .showHelpAfterError();

  program
    .command('migrate')
    .description('apply pending database migrations (safe to run from several replicas at once)')
    .action(() => runCommand(cli, () => migrateCommand(cli)));

  program
    .command('status')
    .description('show the database, pgvector, the vector space, memory counts and pending migrations; changes nothing')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => runCommand(cli, () => statusCommand(cli, options)));

  program
    .command('config')
    .description('configuration commands')
    .command('check')
    .description('validate the environment as the server does at boot; secrets print as [REDACTED]')
    .option('--json', 'print the whole configuration as JSON')
    .action((options: { json?: boolean }) => runCommand(cli, () => configCheckCommand(cli, options)));

  program
    .command('export')
    .description(
      "write one user's memories as lossless JSONL, or as markdown notes to read in Obsidian (docs/export-format.md), page by page; progress on stderr",
    )
    .option('--user <userId>', 'the user (tenant) whose memories to export (on lite: its one user)')
    .option('--format <format>', 'jsonl (the default): the lossless interchange; markdown: one note per memory, into --out <dir>')
    .option('--out <path>', 'jsonl: a file instead of stdout; markdown: a new or empty directory (renamed into place when complete)')
    .option('--tier <tier>', 'only stm or only ltm memories')
    .option('--scope <scope>', 'only memories of exactly this scope')
    .option('--tags <csv>', 'only memories carrying any of these tags')
    .option('--created-from <date>', 'only memories created at or after this ISO 8601 date or date-time')
    .option('--created-to <date>', 'only memories created at or before this ISO 8601 date or date-time')
    .option('--include-deleted', 'add deleted memories (restorable ones)')
    .option('--include-superseded', 'add memories superseded by a newer one')
    .option('--include-history', "jsonl: add each memory's earlier versions")
    .option('--include-audit', "jsonl: add each memory's audit trail")
    .option('--include-vectors', "jsonl: add each memory's embedding vector")
    .option('--page-size <n>', 'memories read per round trip, 1–2000 (default 1000)')
    .action((options: ExportOptions) => runCommand(cli, () => exportCommand(cli, options)));

  program
    .command('import')
    .description(
      "import an agent's memory files or a memsvc export into one user (the import_agent_memory tool); progress on stderr, the summary on stdout",
    )
    .requiredOption('--source <source>', `where the files come from: ${IMPORT_SOURCES.join(', ')}`)
    .requiredOption('--path <path>', 'a project folder (or one file) for the agent sources; the export file for memsvc')
    .option('--user <userId>', 'the user (tenant) the memories are written into (on lite: its one user)')
    .option('--scope <scope>', 'agent sources: the scope of created memories')
    .option('--secrets-policy <policy>', `agent sources: ${SECRETS_POLICIES.join(', ')} (default redact)`)
    .option('--no-split-headings', 'agent sources: one memory per file instead of per # / ## section')
    .option('--dry-run', 'report what would be imported; write nothing')
    .option('--json', 'print the summary as JSON')
    .action((options: ImportOptions) => runCommand(cli, () => importCommand(cli, options)));

  const keys = program.command('keys').description('per-agent API keys: create (the key is shown once), list, revoke');

  keys
    .command('create')
    .description('mint an API key for a user; prints it once (only its hash is stored)')
    .option('--user <userId>', 'the user (tenant) the key acts as (required: lite has no per-agent keys)')
    .requiredOption('--name <name>', 'a name to recognise the key by, 1–100 characters')
    .option('--org <orgId>', 'the organization the key belongs to')
    .option('--scopes <csv>', `comma-separated, of ${SCOPES.join(', ')} (default ${DEFAULT_KEY_SCOPES.join(',')})`)
    .option('--expires-in-days <n>', 'expire the key after n days (1–3650); default never')
    .option('--json', 'print one JSON object (with the key) as the last line')
    .action((options: CreateKeyOptions) => runCommand(cli, () => createKeyCommand(cli, options)));

  keys
    .command('list')
    .description('list keys, newest first: prefix, scopes, dates; never a key or a hash')
    .option('--user <userId>', "only this user's keys")
    .option('--json', 'print a JSON array')
    .action((options: { user?: string; json?: boolean }) => runCommand(cli, () => listKeysCommand(cli, options)));

  keys
    .command('revoke')
    .description('revoke a key at once (revoking it again changes nothing), or every key of a user')
    .argument('[id]', 'the key id, as keys list shows it')
    .option('--user <userId>', 'revoke every key of this user instead')
    .action((id: string | undefined, options: { user?: string }) => runCommand(cli, () => revokeKeyCommand(cli, id, options)));

  const sessions = program.command('sessions').description("session JWTs: list a user's, end all of them");

  sessions
    .command('list')
    .description("a user's unexpired sessions, newest first: when, from where; never a token")
    .requiredOption('--user <userId>', 'the user')
    .option('--json', 'print a JSON array')
    .action((options: { user: string; json?: boolean }) => runCommand(cli, () => listSessionsCommand(cli, options)));

  sessions
    .command('revoke')
    .description('end every live session of a user at once (their tokens are refused from the next call)')
    .requiredOption('--user <userId>', 'the user')
    .action((options: { user: string }) => runCommand(cli, () => revokeSessionsCommand(cli, options)));

  const identities = program
    .command('identities')
    .description('GitHub and Google accounts linked to users: list, link, unlink, block, unblock');
  const accountHelp = 'the account as <provider>:<id> (github:583231), as identities list shows it';

  identities
    .command('list')
    .description('linked accounts by user: the email each last logged in with, and whether its next login is let in')
    .option('--user <userId>', "only this user's accounts")
    .option('--json', 'print a JSON array')
    .action((options: { user?: string; json?: boolean }) => runCommand(cli, () => listIdentitiesCommand(cli, options)));

  identities
    .command('link')
    .description("link an account to a user whatever its email (moving it ends the old user's GitHub/Google sessions)")
    .argument('<account>', accountHelp)
    .requiredOption('--user <userId>', 'the user (tenant) the account logs in as')
    .action((account: string, options: { user: string }) => runCommand(cli, () => linkIdentityCommand(cli, account, options)));

  identities
    .command('unlink')
    .description("forget an account's link and end its user's GitHub/Google sessions; its next login links it by its email")
    .argument('<account>', accountHelp)
    .action((account: string) => runCommand(cli, () => unlinkIdentityCommand(cli, account)));

  identities
    .command('block')
    .description("refuse an account's logins and end its user's GitHub/Google sessions at once")
    .argument('<account>', accountHelp)
    .action((account: string) => runCommand(cli, () => setIdentityBlockedCommand(cli, account, true)));

  identities
    .command('unblock')
    .description('let a blocked account log in again')
    .argument('<account>', accountHelp)
    .action((account: string) => runCommand(cli, () => setIdentityBlockedCommand(cli, account, false)));

  const orgs = program.command('orgs').description('organizations and their members');

  orgs
    .command('create')
    .description('create an organization, optionally with its owner')
    .requiredOption('--name <name>', 'the name, 1–100 characters')
    .option('--slug <slug>', 'a unique URL-safe name; default derived from --name')
    .option('--owner <userId>', 'make this user the owner')
    .option('--json', 'print one JSON object')
    .action((options: { name: string; slug?: string; owner?: string; json?: boolean }) =>
      runCommand(cli, () => createOrgCommand(cli, options)),
    );

  orgs
    .command('list')
    .description('list organizations, newest first')
    .option('--json', 'print a JSON array')
    .action((options: { json?: boolean }) => runCommand(cli, () => listOrgsCommand(cli, options)));

  orgs
    .command('add-member')
    .description("add a user to an organization, or change the user's role there")
    .argument('<orgId>', 'the organization id, as orgs list shows it')
    .requiredOption('--user <userId>', 'the user to add')
    .requiredOption('--role <role>', 'owner, admin or member')
    .option('--json', 'print one JSON object')
    .action((orgId: string, options: { user: string; role: string; json?: boolean }) =>
      runCommand(cli, () => addMemberCommand(cli, orgId, options)),
    );

  orgs
    .command('members')
    .description('list the members of an organization, owners first')
    .argument('<orgId>', 'the organization id')
    .option('--json', 'print a JSON array')
    .action((orgId: string, options: { json?: boolean }) => runCommand(cli, () => listMembersCommand(cli, orgId, options)));

  const grants = program.command('grants').description("spaces of a user's memories shared with other users, organizations or API keys");

  grants
    .command('create')
    .description("share one space (scope) of an owner's memories, read or read-write, until it expires or is revoked")
    .requiredOption('--owner <userId>', 'whose memories')
    .requiredOption('--space <scope>', 'the scope to share, e.g. project:payments')
    .option('--user <userId>', 'share with this user')
    .option('--org <orgId>', 'share with every member of this organization')
    .option('--key <keyId>', 'share with this API key only')
    .option('--access <access>', 'read (default) or read-write')
    .option('--expires <date>', 'ISO 8601 date or date-time when the grant ends')
    .option('--json', 'print one JSON object')
    .action((options: Parameters<typeof createGrantCommand>[1]) => runCommand(cli, () => createGrantCommand(cli, options)));

  grants
    .command('revoke')
    .description("end one of an owner's grants now")
    .argument('<grantId>', 'the grant id, as grants list shows it')
    .requiredOption('--owner <userId>', 'whose grant')
    .option('--json', 'print one JSON object')
    .action((grantId: string, options: { owner: string; json?: boolean }) =>
      runCommand(cli, () => revokeGrantCommand(cli, grantId, options)),
    );

  grants
    .command('list')
    .description('what a user shared (ended grants too) and what is shared with the user now')
    .requiredOption('--user <userId>', 'the user')
    .option('--json', 'print one JSON object')
    .action((options: { user: string; json?: boolean }) => runCommand(cli, () => listGrantsCommand(cli, options)));

  const erase = program
    .command('erase')
    .description("erase a user's memories for good: every version, vector and index entry, with a receipt");

  erase
    .command('memories')
    .description('erase memories of a user for good, in one transaction (all or none)')
    .option('--user <userId>', 'whose memories (on lite: its one user)')
    .requiredOption('--memory <memoryId...>', 'the memories to erase (up to 100)')
    .option('--json', 'print the receipt as one JSON object')
    .action((options: { user?: string; memory: string[]; json?: boolean }) => runCommand(cli, () => eraseMemoriesCommand(cli, options)));

  erase
    .command('user')
    .description('erase every memory of a user for good; a run cut short is finished by running it again')
    .requiredOption('--user <userId>', 'the user')
    .requiredOption('--confirm <userId>', 'the same user id again')
    .option('--json', 'print the receipt as one JSON object')
    .action((options: { user: string; confirm: string; json?: boolean }) => runCommand(cli, () => eraseUserCommand(cli, options)));

  erase
    .command('verify')
    .description("check that nothing of an erasure's memories remains (exit 1 when something does)")
    .argument('<erasureId>', "the receipt's erasure id")
    .option('--user <userId>', 'whose erasure (on lite: its one user)')
    .option('--json', 'print the check as one JSON object')
    .action((erasureId: string, options: { user?: string; json?: boolean }) =>
      runCommand(cli, () => verifyErasureCommand(cli, erasureId, options)),
    );

  erase
    .command('compact')
    .description(
      'PGlite directory: rewrite its files so that erased text is in none of them (every erasure does it already; for one whose compaction failed)',
    )
    .option('--json', 'print the report as one JSON object')
    .action((options: { json?: boolean }) => runCommand(cli, () => eraseCompactCommand(cli, options)));

  return parseOnContext(program, argv, cli);
}
