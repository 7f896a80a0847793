// @ts-check
// The variants ablate-longmemeval.mjs ranks with: recall as it is, then each part switched off or
// set to a neighbouring value. `lexical` overrides the full-text list's parameters
// (LEXICAL_RANKING; or a function of the question that returns them), `fusion` the local embedder's fusion weights, `ranking` rankCandidates'
// options, `perList` the candidates per list, `queryText(text, question, entry)` rewrites the
// ranking text (`question` as asked, `entry` the dataset's question, asked at `askedAt`).
const NO_FOLLOW_UPS = { weight: 0, turns: 2, replyWeight: 0 };

export const VARIANTS = [
  { name: 'memsvc (recall as it is)' },
  { name: 'without the vector list', fusion: { vector: 0 } },
  { name: 'without search context', lexical: { contextWeight: 0 } },
  { name: 'coordination 0.5 (before)', lexical: { coordination: 0.5 } },
  { name: 'b 0.75', lexical: { b: 0.75 } },
  { name: 'without follow-up/reply support', ranking: { followUps: NO_FOLLOW_UPS } },
  { name: 'without named speakers', ranking: { adjustments: { namedSpeaker: false } } },
  { name: 'role pull 0.3', ranking: { adjustments: { roleSpeakerBoost: 0.3 } } },
  { name: 'role pull 1.0', ranking: { adjustments: { roleSpeakerBoost: 1 } } },
  { name: 'without the asking discount', ranking: { adjustments: { asking: false } } },
  { name: '60 candidates per list', perList: 60 },
  {
    name: 'full text alone',
    fusion: { vector: 0 },
    lexical: { contextWeight: 0 },
    ranking: { followUps: NO_FOLLOW_UPS, adjustments: { namedSpeaker: false, asking: false } },
  },
];
