// @ts-check
// What a `recall` costs the agent that reads it: the bytes of the whole MCP tool result as the
// server sends it (text content and structured content both), and a rough token count (4 bytes a
// token, the usual estimate for English and JSON). run-longmemeval.mjs prints the mean per recall.

/**
 * @typedef {{ bytes: number, estimatedTokens: number }} RecallSize
 * @typedef {{ callTool: (request: { name: string, arguments?: Record<string, unknown> }) => Promise<unknown> }} ToolCaller
 */

/**
 * The size of one recall tool result.
 * @param {unknown} result the result of `client.callTool(...)` (content, structuredContent, isError)
 * @returns {RecallSize}
 */
export function recallSize(result) {
  const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
  return { bytes, estimatedTokens: Math.round(bytes / 4) };
}

/**
 * The mean size of the measured recalls, rounded to whole bytes and tokens (zeros when none).
 * @param {readonly RecallSize[]} sizes
 * @returns {RecallSize}
 */
export function meanRecallSize(sizes) {
  if (sizes.length === 0) return { bytes: 0, estimatedTokens: 0 };
  const bytes = sizes.reduce((total, size) => total + size.bytes, 0) / sizes.length;
  return { bytes: Math.round(bytes), estimatedTokens: Math.round(bytes / 4) };
}

/**
 * `client`, with the size of every `recall` result it receives pushed onto `sizes`: an eval asks
 * through it unchanged and reads the sizes afterwards.
 * @template {ToolCaller} C
 * @param {C} client
 * @param {RecallSize[]} sizes
 * @returns {C}
 */
export function measuringClient(client, sizes) {
  return /** @type {C} */ ({
    callTool: async (/** @type {{ name: string, arguments?: Record<string, unknown> }} */ request) => {
      const result = await client.callTool(request);
      if (request.name === 'recall') sizes.push(recallSize(result));
      return result;
    },
  });
}
