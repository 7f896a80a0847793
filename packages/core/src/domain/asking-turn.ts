/**
 * A memory that asks something ("Do you have any pets?") shares a question's words but rarely
 * holds its answer: the reply does. Such memories count this much less in recall (their match
 * is multiplied by 1 − ASKING_DISCOUNT), so an equally matching statement ranks first, and a
 * clearly better-matching question still can. Measured on the LoCoMo development conversations
 * (`local` embedder, evidence-recall@5): 0.1–0.2 all helped, with reply support (follow-up-support.ts)
 * on; 0.15 was chosen from the middle.
 */
export const ASKING_DISCOUNT = 0.15;

/**
 * Whether a memory asks a question. A question mark is the one signal that holds in every
 * language and register; a sentence shaped like a question but ending in a full stop counts as
 * a statement.
 */
export function asksQuestion(content: string): boolean {
  return content.includes('?') || content.includes('？');
}
