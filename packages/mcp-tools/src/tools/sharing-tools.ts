import { GRANT_ACCESS, GRANTEE_KINDS, MAX_GRANTS_LISTED, type MemoryEngine, type MemoryGrant } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { isoDateArgument, scopeArgument, userIdArgument, wholeNumber } from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

const grantIdArgument = z.string().min(1).max(64).describe('Grant id.');

/** A grant as the tools return it; the grantee's id is a user id, an organization id or an API key id, never a secret. */
function grantJson(grant: MemoryGrant) {
  return {
    id: grant.id,
    owner: grant.owner,
    space: grant.space,
    grantee: { kind: grant.grantee.kind, id: grant.grantee.id },
    access: grant.access,
    grantedBy: grant.grantedBy,
    createdAt: grant.createdAt.toISOString(),
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}

/** `grant_access`, `revoke_access`, `list_grants` and `use_shared_space`: sharing spaces by grant (issue 43). */
export function registerSharingTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'grant_access',
    {
      title: 'Share a space of your memories',
      description:
        'Let another user, every member of an organization, or one API key read (or read and write) the memories of ' +
        'one of your scopes, until expiresAt or revoke_access. Granting the same space to the same grantee again ' +
        'changes that grant. Only your own spaces can be shared. The grantee id is not looked up: a grant to an id ' +
        'nobody has yet is accepted and reaches that id once it exists, so check it (list_grants shows it).',
      inputSchema: toolInput({
        userId: userIdArgument,
        space: scopeArgument.describe('The scope to share (e.g. "project:payments").'),
        granteeKind: z.enum(GRANTEE_KINDS).describe('user, organization or api-key.'),
        granteeId: z.string().min(1).max(128).describe('The user id, organization id or API key id.'),
        access: z.enum(GRANT_ACCESS).optional().describe('read (default) or read-write.'),
        expiresAt: isoDateArgument.optional(),
        owner: z.string().max(128).optional().describe('Whose space: only ever your own.'),
      }),
      outputSchema: toolOutput({ grant: objectOutput }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'grant_access', op: 'grant', userId: args.userId }, async (context) => {
        const grant = await engine.grant(context, {
          space: args.space,
          grantee: { kind: args.granteeKind, id: args.granteeId },
          access: args.access ?? 'read',
          expiresAt: args.expiresAt,
          owner: args.owner,
        });
        return { result: toolSuccess({ grant: grantJson(grant) }) };
      }),
  );

  tools.register(
    'revoke_access',
    {
      title: 'End a grant',
      description: "End one of your grants now: the grantee's next call, on any server, no longer reads or writes the space.",
      inputSchema: toolInput({ userId: userIdArgument, grantId: grantIdArgument }),
      outputSchema: toolOutput({ grant: objectOutput }),
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'revoke_access', op: 'revoke', userId: args.userId }, async (context) => ({
        result: toolSuccess({ grant: grantJson(await engine.revokeGrant(context, args.grantId)) }),
      })),
  );

  tools.register(
    'list_grants',
    {
      title: 'List shared spaces',
      description:
        'The spaces you shared (given, ended ones too) and the spaces shared with you now (received, with whether ' +
        'your reads include each by default).',
      inputSchema: toolInput({ userId: userIdArgument, limit: wholeNumber(1, MAX_GRANTS_LISTED, 'Per side (default 100).').optional() }),
      outputSchema: toolOutput({ given: z.array(objectOutput), received: z.array(objectOutput) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'list_grants', op: 'list_grants', userId: args.userId }, async (context) => {
        const [{ given, received }, spaces] = await Promise.all([engine.grants(context, args.limit), engine.sharedSpaces(context, 'all')]);
        const byDefault = new Set(spaces.filter((space) => space.byDefault).map((space) => `${space.owner}\n${space.space}`));
        return {
          result: toolSuccess({
            given: given.map(grantJson),
            received: received.map((grant) => ({ ...grantJson(grant), byDefault: byDefault.has(`${grant.owner}\n${grant.space}`) })),
          }),
        };
      }),
  );

  tools.register(
    'use_shared_space',
    {
      title: 'Read a shared space by default',
      description:
        'Choose whether recall, load_context and prompt_context include a space shared with you without naming it ' +
        '(shared: "default"). Name a space in `shared` to read it once.',
      inputSchema: toolInput({ userId: userIdArgument, grantId: grantIdArgument, byDefault: z.boolean() }),
      outputSchema: toolOutput({ grantId: z.string(), byDefault: z.boolean() }),
      annotations: { idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(
        pipeline,
        request,
        { kind: 'memory', tool: 'use_shared_space', op: 'use_shared_space', userId: args.userId },
        async (context) => {
          await engine.chooseSharedDefault(context, args.grantId, args.byDefault);
          return { result: toolSuccess({ grantId: args.grantId, byDefault: args.byDefault }) };
        },
      ),
  );
}
