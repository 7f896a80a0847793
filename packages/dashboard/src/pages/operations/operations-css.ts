/** The operations pages' own style rules, appended to the dashboard's stylesheet. */
export const OPERATIONS_PAGE_CSS = '';
