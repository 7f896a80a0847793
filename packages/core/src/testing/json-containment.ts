// The rule lives in core's domain (an `asOf` read applies it to past versions); the in-memory store uses the same.
export { jsonContains } from '../domain/json-containment.js';
