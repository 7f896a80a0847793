/** The access pages' own style rules, appended to the dashboard's stylesheet. */
export const ACCESS_PAGE_CSS = '';
