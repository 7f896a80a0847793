/** A dashboard URL: the base path, a path, and the query parameters that are set. */
export function pageUrl(basePath: string, path: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const search = params.toString();
  return `${basePath}${path}${search ? `?${search}` : ''}`;
}
