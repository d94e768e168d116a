/**
 * Config text to a value, read as JSONC (SPEC C1): JSON plus comments and trailing commas,
 * as VS Code's `mcp.json` is written. Errors say where: `<file>: invalid JSON at line 3,
 * column 9: expected a value`. Nesting is bounded before the (recursive) parser runs, so no
 * file, however deep, can overflow the stack of the process reading it.
 * @module
 */
import {
  createScanner,
  findNodeAtLocation,
  type Node,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
  type SyntaxKind,
} from 'jsonc-parser';
import { ConfigError } from '../errors.js';
import type { LocatePath } from './config-issues.js';

/** Options of the JSONC parser shared by every reader of config text. */
export const JSONC_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

/**
 * The deepest nesting of arrays and objects a config text may have. A real config needs
 * about six levels; the parser, the validator and the editor all recurse, and a hand edit
 * nested 10,000 deep must be an error naming where, never a stack overflow.
 */
export const MAX_CONFIG_DEPTH = 100;

const REASONS: Readonly<Record<string, string>> = Object.freeze({
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected double-quoted property name',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'invalid character in a string',
});

/** Parse config text (a leading BOM is ignored); throws a `ConfigError` with line and column. */
export function parseConfigJson(text: string, file: string | null): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const tooDeep = depthExceededAt(body, MAX_CONFIG_DEPTH);
  if (tooDeep !== null) throw invalidJson(body, file, tooDeep, `nested deeper than ${MAX_CONFIG_DEPTH} levels`);
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parse(body, errors, JSONC_OPTIONS);
  } catch (error) {
    // Not expected once the depth is bounded; a parser failure is still this file's error.
    const why = error instanceof Error ? error.message : String(error);
    const message = `${file ?? '(config)'}: cannot parse: ${why}`;
    throw new ConfigError(message, file, [{ server: null, field: '', message: why }], { cause: error });
  }
  const first = errors[0];
  if (first === undefined) return value;
  throw invalidJson(body, file, first.offset, REASONS[printParseErrorCode(first.error)] ?? 'syntax error');
}

// jsonc-parser's token kinds are a const enum (types only): their values, checked against it.
const OPEN_BRACE: SyntaxKind.OpenBraceToken = 1;
const CLOSE_BRACE: SyntaxKind.CloseBraceToken = 2;
const OPEN_BRACKET: SyntaxKind.OpenBracketToken = 3;
const CLOSE_BRACKET: SyntaxKind.CloseBracketToken = 4;
const EOF: SyntaxKind.EOF = 17;

/** The offset of the first `[` or `{` deeper than `max`, or null (a scan: no recursion). */
export function depthExceededAt(text: string, max: number): number | null {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return scanner.getTokenOffset();
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      depth = Math.max(0, depth - 1);
    }
  }
  return null;
}

function invalidJson(text: string, file: string | null, offset: number, reason: string): ConfigError {
  const { line, column } = lineColumn(text, offset);
  const detail = `invalid JSON at line ${line}, column ${column}: ${reason}`;
  return new ConfigError(`${file ?? '(config)'}: ${detail}`, file, [{ server: null, field: '', message: detail }]);
}

/**
 * Where each JSON path is in `text` (call only on text {@link parseConfigJson} accepted): the
 * deepest part of the path that exists, at its key when it is an object's property.
 */
export function jsonPathLocator(text: string): LocatePath {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let root: Node | undefined | null = null;
  return (path) => {
    if (root === null) root = parseTree(body, [], JSONC_OPTIONS);
    if (root === undefined) return null;
    let node: Node = root;
    for (const key of path) {
      const child = findNodeAtLocation(node, [key]);
      if (child === undefined) break;
      node = child;
    }
    return lineColumn(body, node.parent?.type === 'property' ? node.parent.offset : node.offset);
  };
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}
