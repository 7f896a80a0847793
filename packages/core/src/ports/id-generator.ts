/** Makes identifiers for new rows. */
export interface IdGenerator {
  /** A new unique id. Ids from one generator sort by creation time (UUIDv7 in production). */
  next(): string;
}
