/**
 * The entry of src/gateway/search/ (part `gateway-search` in docs/architecture/parts.json):
 * tool search for large catalogs (issue 24), what the other parts import from it.
 * @module
 */
export { CHARS_PER_TOKEN, estimateTokens } from './estimate-tokens.js';
export { CALL_TOOL, DESCRIBE_TOOLS, isMetaTool, metaTools, SEARCH_TOOLS } from './meta-tools.js';
export { nameWords } from './name-words.js';
export type { OwnerOf } from './search-listing.js';
export { isSearchOn, listingTokens, searchListingKey, searchModeListing, toolSearchMode } from './search-listing.js';
export { toTerm } from './search-terms.js';
export type { IndexedTool, RegexMatcher, ToolHit, ToolIndex } from './tool-index.js';
export { createToolIndex, MAX_QUERY, summaryOf } from './tool-index.js';
export type { ViewIndexes } from './view-indexes.js';
export { createViewIndexes } from './view-indexes.js';
