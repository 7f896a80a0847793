/** The review pages' own style rules, appended to the dashboard's stylesheet. */
export const REVIEW_PAGE_CSS = '';
