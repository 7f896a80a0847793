import type { OrganizationWithMembers } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import { shortTime } from '../../views/format.js';

/** Members listed per organization: enough for a team, small enough to keep the page light. */
export const MEMBERS_SHOWN = 100;

/**
 * The viewer's organizations and their members, read-only: no rule lets an owner or admin of an
 * organization manage it yet (organization-rules.ts defines the roles, not their powers), so only
 * an operator creates organizations and adds members, with the CLI. The page says so.
 */
export function OrganizationsSection(props: { tenant: TenantId; organizations: readonly OrganizationWithMembers[] }) {
  return (
    <section aria-labelledby="organizations-title">
      <h2 id="organizations-title">Organizations</h2>
      <p class="note">
        Read-only here: organizations are created and their members added by an operator, with <code>memsvc orgs create</code> and{' '}
        <code>memsvc orgs add-member</code>. A key can belong to an organization you are a member of; the organization's keys share its rate
        limit.
      </p>
      {props.organizations.length === 0 ? <p>You are not a member of any organization.</p> : null}
      {props.organizations.map(({ organization, members }) => {
        const yours = members.find((member) => member.userId === props.tenant);
        const titleId = `organization-${organization.id}`;
        return (
          <section class="organization card" aria-labelledby={titleId}>
            <h3 id={titleId}>
              {organization.name} <small>({organization.slug})</small>
            </h3>
            <p>
              <small>
                Created {shortTime(organization.createdAt)}
                {yours ? `; you are ${yours.role === 'admin' ? 'an' : 'a'} ${yours.role}` : ''}.
              </small>
            </p>
            <table class="members">
              <caption class="sr-only">Members of {organization.name}, owners first</caption>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">Since</th>
                </tr>
              </thead>
              <tbody>
                {members.slice(0, MEMBERS_SHOWN).map((member) => (
                  <tr>
                    <td>
                      {member.userId}
                      {member.userId === props.tenant ? <small> (you)</small> : null}
                    </td>
                    <td>{member.role}</td>
                    <td>{shortTime(member.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {members.length > MEMBERS_SHOWN ? (
              <p>
                <small>
                  and {members.length - MEMBERS_SHOWN} more (<code>memsvc orgs members {organization.id}</code>)
                </small>
              </p>
            ) : null}
          </section>
        );
      })}
    </section>
  );
}
