import type { ProgressListener } from '@memsvc/core';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a tool callback besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A listener that turns core's progress into `notifications/progress` for the request, when the
 * client asked for them (a `_meta.progressToken`); undefined otherwise, so the work reports
 * nothing. Progress only grows (the MCP rule), and a notification that cannot be delivered (the
 * client went away) never fails the work.
 */
export function progressOf(extra: ToolExtra): ProgressListener | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let last = -1;
  return ({ done, total, message }) => {
    if (done <= last) return;
    last = done;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: done, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
      })
      .catch(() => {});
  };
}
