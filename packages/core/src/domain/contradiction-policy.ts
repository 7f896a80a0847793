/**
 * What a write does with an older memory it contradicts (CONTRADICTION_POLICY, spec §2.5):
 * `supersede` retires it in favour of the new one, `flag` keeps both and records the conflict.
 */
export type ContradictionPolicy = 'supersede' | 'flag';
