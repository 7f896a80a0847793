/**
 * PostgreSQL's jsonb containment (`@>`), the rule of the recall's metadata filter: an object
 * contains another when every key of the other is there and contains its value; an array
 * contains another when each of the other's elements is contained in one of its own; scalars
 * must be equal. (jsonb also lets a top-level array contain a bare scalar; a metadata filter is
 * always an object, so that case never arises here.)
 */
export function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained)) {
    return Array.isArray(container) && contained.every((wanted) => container.some((held) => jsonContains(held, wanted)));
  }
  if (isObject(contained)) {
    return (
      isObject(container) && Object.entries(contained).every(([key, wanted]) => key in container && jsonContains(container[key], wanted))
    );
  }
  return container === contained;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
