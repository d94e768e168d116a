/**
 * How many tokens a listing costs a model, estimated without a tokenizer (issue 24): the
 * characters of its JSON divided by 4, the usual rule of thumb for English and JSON with
 * the common BPE tokenizers (it overestimates prose a little and underestimates dense
 * JSON a little). Used for `toolSearch: "auto"` and reported by the search API.
 * @module
 */

/** Characters per token in the estimate. */
export const CHARS_PER_TOKEN = 4;

/** The estimated tokens of `value` as JSON. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / CHARS_PER_TOKEN);
}
