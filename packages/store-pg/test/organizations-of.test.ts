import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const START = '2026-05-01T09:00:00.000Z';

describeEachEngine('the organizations of a user', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['organization_members', 'organizations'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  it('lists the organizations a user belongs to in any role, newest first, and never one they are not in', async () => {
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme', owner: alice });
    clock.advance(1000);
    const globex = await store.organizations.create({ name: 'Globex', slug: 'globex', owner: bob });
    clock.advance(1000);
    const initech = await store.organizations.create({ name: 'Initech', slug: 'initech' });
    await store.organizations.addMember({ organizationId: initech.id, userId: alice, role: 'member' });
    await store.organizations.addMember({ organizationId: initech.id, userId: bob, role: 'admin' });

    expect(await store.organizations.organizationsOf(alice)).toEqual([initech, acme]);
    expect(await store.organizations.organizationsOf(bob)).toEqual([initech, globex]);
    expect(await store.organizations.organizationsOf(toTenantId('carol'))).toEqual([]);
  });

  it('lists an organization once when a member’s role changes', async () => {
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme', owner: alice });
    await store.organizations.addMember({ organizationId: acme.id, userId: alice, role: 'admin' });
    expect(await store.organizations.organizationsOf(alice)).toEqual([acme]);
  });
});
