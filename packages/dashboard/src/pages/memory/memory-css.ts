/** The memory pages' own style rules, appended to the dashboard's stylesheet. */
export const MEMORY_PAGE_CSS = '';
