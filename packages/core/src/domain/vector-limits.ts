/**
 * pgvector's HNSW index holds vectors of at most this many dimensions; a larger vector could be
 * stored but never searched by the index, so memsvc refuses it (spec §2.5, VECTOR_DIMENSIONS).
 */
export const HNSW_MAX_DIMENSIONS = 2000;
