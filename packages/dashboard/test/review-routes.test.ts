import { type CallContext, type MemoryRecord, toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

const ORIGIN = 'http://localhost';
const TOKEN = 'A'.repeat(43);
const dev: CallContext = { tenant: toTenantId('dev'), actor: { id: 'agent:test' } };
const other: CallContext = { tenant: toTenantId('someone-else'), actor: { id: 'agent:x' } };
/** A pair in the `local` embedder's contradiction band (0.83). */
const COFFEE = [
  'Alice prefers her coffee black with no sugar every morning',
  'Alice prefers her coffee with milk and no sugar every morning',
];
/** Near-duplicates in the merge band (0.93). */
const KAYAK = ['The kayak is stored in the garage behind the blue bicycles', 'The kayak is stored in the shed behind the blue bicycles'];

describe('the review routes, in process', () => {
  let dashboard: TestDashboard;
  const mine: MemoryRecord[] = [];
  const theirs: MemoryRecord[] = [];
  const theirKayaks: MemoryRecord[] = [];

  /** A form post as the dev viewer's browser sends it: same origin, the CSRF cookie, and `_csrf` unless the test forges it. */
  const post = (path: string, fields: Record<string, string | string[]>, csrf = TOKEN) => {
    const body = new URLSearchParams({ _csrf: csrf });
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
    return dashboard.app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      body,
      headers: { origin: ORIGIN, cookie: `memsvc_csrf=${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
  };
  const seen = (memory: MemoryRecord) => `${memory.id}@${memory.version}`;
  const snapshot = (context: CallContext, memories: readonly MemoryRecord[]) =>
    Promise.all(memories.map((memory) => dashboard.runtime.store.memories.findById(context.tenant, memory.id, { includeDeleted: true })));

  beforeAll(async () => {
    dashboard = await startTestDashboard('pglite://memory');
    const { engine, embedder, store } = dashboard.runtime;
    for (const [list, context] of [
      [mine, dev],
      [theirs, other],
    ] as const) {
      for (const content of COFFEE) list.push((await engine.create(context, { content, tier: 'ltm' })).memory);
    }
    for (const content of KAYAK) {
      const [vector] = (await embedder.embed([content])) ?? [];
      if (!vector || !embedder.model) throw new Error('the local embedder gives a vector');
      theirKayaks.push(
        await store.memories.insertAsGiven(
          other.tenant,
          { tier: 'ltm', content, embedding: { vector, model: embedder.model } },
          other.actor,
        ),
      );
    }
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it('refuses a forged CSRF token with 403 and changes nothing', async () => {
    const [older, newer] = mine;
    if (!older || !newer) throw new Error('a pair');
    const before = await snapshot(dev, mine);
    const response = await post(
      '/review/contradictions/resolve',
      { newer: seen(newer), older: seen(older), outcome: 'keep-newer' },
      `B${TOKEN.slice(1)}`,
    );
    expect(response.status).toBe(403);
    const deleteResponse = await post('/review/fading/delete', { only: older.id }, 'forged');
    expect(deleteResponse.status).toBe(403);
    expect(await snapshot(dev, mine)).toEqual(before);
    expect((await dashboard.runtime.store.review.contradictedPairs(dev.tenant, { limit: 10 })).pairs).toHaveLength(1);
  });

  it('answers another tenant’s pair with 404 and leaves it, its memories and their versions as they were', async () => {
    const [older, newer] = theirs;
    if (!older || !newer) throw new Error('a pair');
    const before = await snapshot(other, theirs);
    for (const outcome of ['keep-both', 'keep-newer', 'keep-older']) {
      const response = await post('/review/contradictions/resolve', { newer: seen(newer), older: seen(older), outcome });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('coffee');
    }
    // Nor can the viewer's own memory be paired with theirs.
    const [, myNewer] = mine;
    expect(
      (await post('/review/contradictions/resolve', { newer: seen(myNewer as MemoryRecord), older: seen(older), outcome: 'keep-both' }))
        .status,
    ).toBe(404);
    // Their ids in the stale list's delete and in an approval do nothing either.
    const deleted = await post('/review/fading/delete', { ids: theirs.map((memory) => memory.id) });
    expect(deleted.headers.get('location')).toBe('/review?notice=deleted&n=0#fading');
    const [kept, merging] = theirKayaks;
    if (!kept || !merging) throw new Error('a cluster');
    const approved = await post('/review/consolidation/approve', { cluster: `${seen(merging)}~${seen(kept)}` });
    expect(approved.headers.get('location')).toBe('/review/consolidation?notice=merged&n=0&changed=1');
    expect(await snapshot(other, theirs)).toEqual(before);
    expect((await snapshot(other, theirKayaks)).map((memory) => memory?.supersededBy)).toEqual([null, null]);
    expect((await dashboard.runtime.store.review.contradictedPairs(other.tenant, { limit: 10 })).pairs).toHaveLength(1);
  });

  it('reports a pair that changed since it was shown, or a broken form, and changes nothing', async () => {
    const [older, newer] = mine;
    if (!older || !newer) throw new Error('a pair');
    const stale = await post('/review/contradictions/resolve', {
      newer: `${newer.id}@${newer.version + 1}`,
      older: seen(older),
      outcome: 'keep-older',
    });
    expect([stale.status, stale.headers.get('location')]).toEqual([303, '/review?notice=pair-changed#contradictions']);
    const broken = await post('/review/contradictions/resolve', { newer: newer.id, older: seen(older), outcome: 'keep-older' });
    expect(broken.headers.get('location')).toBe('/review?notice=not-a-pair#contradictions');
    const unknown = await post('/review/contradictions/resolve', { newer: seen(newer), older: seen(older), outcome: 'delete-both' });
    expect(unknown.headers.get('location')).toBe('/review?notice=not-a-pair#contradictions');
    expect((await snapshot(dev, mine)).map((memory) => [memory?.deletedAt, memory?.contradicted, memory?.version])).toEqual([
      [null, true, older.version],
      [null, true, newer.version],
    ]);

    const page = await dashboard.app.request(`${ORIGIN}/review?notice=pair-changed&n=<b>9</b>`, {
      headers: { cookie: `memsvc_csrf=${TOKEN}` },
    });
    const html = await page.text();
    expect(html).toContain('changed after the page was shown');
    expect(html).not.toContain('<b>9</b>');
    const unknownNotice = await dashboard.app.request(`${ORIGIN}/review?notice=%3Cscript%3E`, {
      headers: { cookie: `memsvc_csrf=${TOKEN}` },
    });
    expect(await unknownNotice.text()).not.toContain('class="notice');
  });
});
