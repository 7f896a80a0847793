/** Deepest nesting of arrays and objects an MCP request body may have; real calls use under ten. */
export const MCP_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Tracks how deeply the arrays and objects of a JSON text nest, a chunk at a time as the bytes
 * arrive, without building anything: a bracket inside a string is not counted, and an escaped
 * quote does not end one. `JSON.parse` of a body nested two million deep holds the event loop
 * for seconds (issue 37 #6), so depth is refused before parsing, in time linear in the bytes
 * seen, and no byte after the one that went too deep is looked at. It checks nesting only: the
 * parse that follows still refuses text that is not JSON.
 */
export class JsonNestingScanner {
  readonly #maxDepth: number;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #tooDeep = false;

  constructor(maxDepth: number = MCP_MAX_JSON_DEPTH) {
    this.#maxDepth = maxDepth;
  }

  /** True once the text has nested deeper than allowed; stays true. */
  get tooDeep(): boolean {
    return this.#tooDeep;
  }

  /** Scans the next bytes of the text (UTF-8: the bytes that matter are all ASCII). */
  feed(chunk: Uint8Array): void {
    if (this.#tooDeep) return;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        if (++depth > this.#maxDepth) {
          this.#tooDeep = true;
          return;
        }
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        // Unbalanced closers are the parser's to refuse; they must not buy extra depth.
        if (depth > 0) depth--;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
  }
}
