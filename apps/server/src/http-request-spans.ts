import type { Tracer } from '@memsvc/core';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';

/** The request methods a span names as they are; any other (client-chosen) word is `_OTHER`. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/**
 * A span per HTTP request (spec §6 rule 2), named `<method> <route>` after the route pattern
 * that answers it (`POST /mcp`), with the method, the route and the status code — no URL, query
 * string or header, which can carry tokens. Everything the request does (the tool call, its
 * statements) nests inside. A 5xx fails the span with the status as its code.
 */
export function httpRequestSpans(tracer: Tracer): MiddlewareHandler {
  return async (c, next) => {
    const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : '_OTHER';
    const route = routeOf(c);
    await tracer.inSpan(route ? `${method} ${route}` : method, { 'http.request.method': method, 'http.route': route }, async (span) => {
      await next();
      const status = c.res.status;
      span.setAttributes({ 'http.response.status_code': status });
      if (status >= 500) span.fail(String(status));
    });
  };
}

/**
 * The pattern of the route that will answer, known before any handler runs; undefined when only
 * middleware matches (a 404), so an unknown path never names a span.
 */
function routeOf(c: Context): string | undefined {
  const routes = matchedRoutes(c).filter((route) => route.path !== '*' && route.path !== '/*');
  return routes.at(-1)?.path;
}
