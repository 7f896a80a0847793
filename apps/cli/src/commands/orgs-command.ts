import { checkOrganizationRequest, checkOrganizationRole, type OrganizationRecord } from '@memsvc/access';
import type { CliContext } from '../cli-context.js';
import { parseOrganizationId, parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorRuntime, withOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-orgs';

/** The flags a refused organization names. */
const ORGANIZATION_FLAGS = { name: '--name', slug: '--slug' } as const;

/** `memsvc orgs create`: an organization, its slug taken from the name unless given, and optionally its owner. */
export async function createOrgCommand(
  cli: CliContext,
  options: {
    readonly name: string;
    readonly slug?: string;
    readonly owner?: string;
    readonly json?: boolean;
  },
): Promise<void> {
  const owner = options.owner === undefined ? undefined : parseUserFlag(options.owner, '--owner');
  // Checked before the database is opened; the access service applies the same rules as it creates.
  const request = checkOrganizationRequest({ name: options.name, slug: options.slug, owner }, ORGANIZATION_FLAGS);
  await withOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const organization = await access.organizations.create(request, ORGANIZATION_FLAGS);
    if (options.json) {
      writeJsonLine(cli, { ...organizationJson(organization), owner: owner ?? null });
      return;
    }
    cli.stdout.write(
      `created organization ${organization.id} "${organization.name}" (slug ${organization.slug})${owner ? `, owner ${owner}` : ''}\n`,
    );
  });
}

/** `memsvc orgs list`: every organization, newest first. */
export async function listOrgsCommand(cli: CliContext, options: { readonly json?: boolean }): Promise<void> {
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const organizations = await access.organizations.list();
    if (options.json) {
      writeJsonLine(cli, organizations.map(organizationJson));
      return;
    }
    if (organizations.length === 0) {
      cli.stdout.write('no organizations\n');
      return;
    }
    const rows = organizations.map((organization) => [
      organization.id,
      organization.slug,
      organization.name,
      formatInstant(organization.createdAt),
    ]);
    cli.stdout.write(`${formatTable(['ID', 'SLUG', 'NAME', 'CREATED'], rows)}\n`);
  });
}

/** `memsvc orgs add-member`: adds a user to an organization, or changes their role there. */
export async function addMemberCommand(
  cli: CliContext,
  organizationId: string,
  options: { readonly user: string; readonly role: string; readonly json?: boolean },
): Promise<void> {
  const id = parseOrganizationId(organizationId, '<orgId>');
  const userId = parseUserFlag(options.user);
  // Checked before the database is opened, by the rule the access service applies again.
  const role = checkOrganizationRole(options.role, '--role');
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const member = await access.organizations.addMember({ organizationId: id, userId, role }, { role: '--role' });
    if (options.json) {
      writeJsonLine(cli, {
        organizationId: member.organizationId,
        userId: member.userId,
        role: member.role,
        createdAt: member.createdAt.toISOString(),
      });
      return;
    }
    cli.stdout.write(`${member.userId} is ${member.role} of organization ${member.organizationId}\n`);
  });
}

/** `memsvc orgs members`: the members of one organization, owners first. */
export async function listMembersCommand(cli: CliContext, organizationId: string, options: { readonly json?: boolean }): Promise<void> {
  const id = parseOrganizationId(organizationId, '<orgId>');
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const members = await access.organizations.members(id, { organizationId: '<orgId>' });
    if (options.json) {
      writeJsonLine(
        cli,
        members.map((member) => ({ userId: member.userId, role: member.role, createdAt: member.createdAt.toISOString() })),
      );
      return;
    }
    if (members.length === 0) {
      cli.stdout.write('no members\n');
      return;
    }
    const rows = members.map((member) => [member.userId, member.role, formatInstant(member.createdAt)]);
    cli.stdout.write(`${formatTable(['USER', 'ROLE', 'SINCE'], rows)}\n`);
  });
}

function organizationJson(organization: OrganizationRecord) {
  return { id: organization.id, name: organization.name, slug: organization.slug, createdAt: organization.createdAt.toISOString() };
}
