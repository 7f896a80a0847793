import { checkOrganizationName, checkOrganizationRole, checkOrganizationSlug, type OrganizationRecord, slugFromName } from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import type { CliContext } from '../cli-context.js';
import { parseOrganizationId, parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorStore, withOperatorStore } from '../operator-store.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-orgs';

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
  const name = checkOrganizationName(options.name, '--name');
  const slug = options.slug === undefined ? slugFromName(name) : checkOrganizationSlug(options.slug, '--slug');
  if (slug === undefined) {
    throw new MemsvcError('INVALID_INPUT', '--name gives no usable slug (letters a–z or digits); pass --slug', { field: '--slug' });
  }
  const owner = options.owner === undefined ? undefined : parseUserFlag(options.owner, '--owner');
  await withOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const organization = await store.organizations.create({ name, slug, owner });
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
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const organizations = await store.organizations.list();
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
  const role = checkOrganizationRole(options.role, '--role');
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const member = await store.organizations.addMember({ organizationId: id, userId, role });
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
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    if (!(await store.organizations.find(id))) throw new MemsvcError('NOT_FOUND', `no organization with id ${id}`, { field: '<orgId>' });
    const members = await store.organizations.members(id);
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
