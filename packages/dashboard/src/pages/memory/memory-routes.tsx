import { type CallContext, importanceParts, isMemsvcError } from '@memsvc/core';
import { httpStatusOf } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { ErrorPage } from '../../views/error-page.js';
import { frameOf } from '../../views/frame.js';
import { erasedMemoryPage } from '../erasure/erasure-routes.js';
import { ConflictPage } from './memory-conflict-view.js';
import { readEdit, readVersion } from './memory-form.js';
import { versionsOf } from './memory-history.js';
import { type MemoryNoticeCode, memoryNotice } from './memory-notices.js';
import { MEMORY_ID_PATTERN, memoryPath } from './memory-paths.js';
import { MemoryPage, type MemoryView } from './memory-view.js';
import { peekMemory as peek } from './peek-memory.js';

/** Audit entries read for the history and the trail: the versions shown come from these. */
const AUDIT_READ = 100;
/** Links a page lists. */
const LINKS_READ = 100;

const PAGE = `/memories/:id{${MEMORY_ID_PATTERN}}`;

/** `/memories/:id`: one memory, its history, audit and links, and the changes a person can make. */
export function registerMemoryRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine, clock, config } = dependencies.runtime;
  const base = options.basePath;
  const redirect = (c: Context<DashboardEnv>, id: string, notice: MemoryNoticeCode) =>
    c.redirect(`${memoryPath(base, id)}?notice=${notice}`, 303);
  const notFound = (c: Context<DashboardEnv>) =>
    c.html(<ErrorPage basePath={base} title="Not found" message="There is no such memory among yours." />, httpStatusOf('NOT_FOUND'));

  /** Everything the page shows of a memory (a deleted one too), or undefined when it is not the viewer's. */
  const pageOf = async (c: Context<DashboardEnv>, id: string): Promise<Omit<MemoryView, 'frame'> | undefined> => {
    const context = callContextOf(c.get('viewer'));
    const memory = await peek(engine, context, id);
    if (!memory) return undefined;
    const [audit, links] = await Promise.all([
      engine.audit(context, id, AUDIT_READ).catch((error: unknown) => (isMemsvcError(error, 'NOT_FOUND') ? [] : Promise.reject(error))),
      engine.links(context, id, LINKS_READ),
    ]);
    const halfLifeDays = config.importance.halfLifeDays;
    return {
      memory,
      importance: importanceParts(memory, clock.now(), halfLifeDays),
      halfLifeDays,
      links,
      versions: versionsOf(audit),
      audit,
    };
  };

  app.get(PAGE, async (c) => {
    const id = c.req.param('id');
    const page = await pageOf(c, id);
    // An erased memory's page says so (410), with its erasure; any other unknown id is not found.
    if (!page) return (await erasedMemoryPage(c, dependencies, options, id)) ?? notFound(c);
    return c.html(<MemoryPage frame={frameOf(c, options)} {...page} notice={memoryNotice(c.req.query('notice'))} />);
  });

  app.post(`${PAGE}/edit`, async (c) => {
    const id = c.req.param('id');
    const context = callContextOf(c.get('viewer'));
    const edit = readEdit(await c.req.parseBody());
    const current = await peek(engine, context, id);
    if (!current) return notFound(c);
    if (edit.expectedVersion === undefined) return redirect(c, id, 'stale');
    if (edit.expectedVersion === current.version && sameText(edit.content, current.content) && sameTags(edit.tags, current.tags)) {
      return redirect(c, id, 'unchanged');
    }
    try {
      // Unchanged content is not sent: line endings a browser rewrote are no edit, and no re-embedding.
      const change = sameText(edit.content, current.content) ? { tags: edit.tags } : { content: edit.content, tags: edit.tags };
      await engine.update(context, id, change, edit.expectedVersion);
      return redirect(c, id, 'saved');
    } catch (error) {
      if (isMemsvcError(error, 'CONFLICT')) {
        const now = await peek(engine, context, id);
        if (!now) return notFound(c);
        const yours = { content: edit.content, tags: edit.tags };
        return c.html(
          <ConflictPage frame={frameOf(c, options)} current={now} expectedVersion={edit.expectedVersion} yours={yours} />,
          httpStatusOf('CONFLICT'),
        );
      }
      if (isMemsvcError(error, 'INVALID_INPUT')) {
        const page = await pageOf(c, id);
        if (!page) return notFound(c);
        const draft = { content: edit.content, tags: edit.tags, error: error.message };
        return c.html(<MemoryPage frame={frameOf(c, options)} {...page} draft={draft} />, httpStatusOf('INVALID_INPUT'));
      }
      if (isMemsvcError(error, 'NOT_FOUND')) return (await peek(engine, context, id)) ? redirect(c, id, 'stale') : notFound(c);
      throw error;
    }
  });

  app.post(`${PAGE}/pin`, async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const expectedVersion = readVersion(form.expectedVersion);
    const pinned = form.pinned === 'true';
    if (expectedVersion === undefined) return redirect(c, id, 'stale');
    const change = async (context: CallContext) => {
      await engine.update(context, id, { pinned }, expectedVersion);
      return pinned ? 'pinned' : 'unpinned';
    };
    return changeOrNotFound(c, id, change, { conflict: 'stale' });
  });

  app.post(`${PAGE}/promote`, async (c) => {
    const id = c.req.param('id');
    const context = callContextOf(c.get('viewer'));
    try {
      const result = await engine.promote(context, id);
      if (result.outcome === 'duplicate') return redirect(c, result.memory.id, 'promoted-duplicate');
      return redirect(c, id, result.outcome === 'promoted' ? 'promoted' : 'already-long-term');
    } catch (error) {
      if (isMemsvcError(error, 'NOT_FOUND')) return (await peek(engine, context, id)) ? redirect(c, id, 'stale') : notFound(c);
      throw error;
    }
  });

  app.post(`${PAGE}/delete`, async (c) => {
    const id = c.req.param('id');
    const context = callContextOf(c.get('viewer'));
    // False when it was deleted already (a second click): the page shows it deleted either way.
    if (await engine.delete(context, id)) return redirect(c, id, 'deleted');
    return (await peek(engine, context, id)) ? redirect(c, id, 'deleted') : notFound(c);
  });

  app.post(`${PAGE}/restore`, async (c) => {
    const id = c.req.param('id');
    const field = (await c.req.parseBody()).version;
    const version = readVersion(field);
    if (field !== undefined && field !== '' && version === undefined) return redirect(c, id, 'bad-version');
    const change = async (context: CallContext) => {
      await engine.restore(context, id, version);
      return version === undefined ? 'restored' : 'restored-version';
    };
    // CONFLICT: a restore without a version of a memory that is not deleted.
    return changeOrNotFound(c, id, change, { conflict: 'not-deleted' });
  });

  /** Runs a change and redirects with its notice; a refusal becomes a notice, an id that is not the viewer's the 404 page. */
  async function changeOrNotFound(
    c: Context<DashboardEnv>,
    id: string,
    change: (context: CallContext) => Promise<MemoryNoticeCode>,
    refusals: { conflict: MemoryNoticeCode },
  ): Promise<Response> {
    const context = callContextOf(c.get('viewer'));
    try {
      return redirect(c, id, await change(context));
    } catch (error) {
      if (isMemsvcError(error, 'CONFLICT')) return redirect(c, id, refusals.conflict);
      // The only input a pin or a restore carries besides the id is the version.
      if (isMemsvcError(error, 'INVALID_INPUT')) return redirect(c, id, 'bad-version');
      if (isMemsvcError(error, 'NOT_FOUND')) {
        // A missing snapshot of a version is a bad version; a missing memory is not the viewer's.
        if (error.data.version !== undefined) return redirect(c, id, 'bad-version');
        return (await peek(engine, context, id)) ? redirect(c, id, 'stale') : notFound(c);
      }
      throw error;
    }
  }
}

/** Text as a browser sends a textarea back (CRLF line breaks) compared with what is stored. */
function sameText(submitted: string, stored: string): boolean {
  return submitted === stored.replace(/\r\n/g, '\n');
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
}
