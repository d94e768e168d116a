/**
 * Config text to a value, read as JSONC (SPEC C1): JSON plus comments and trailing commas,
 * as VS Code's `mcp.json` is written. Errors say where: `<file>: invalid JSON at line 3,
 * column 9: expected a value`.
 * @module
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { ConfigError } from '../errors.js';

/** Options of the JSONC parser shared by every reader of config text. */
export const JSONC_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

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
  const errors: ParseError[] = [];
  const value: unknown = parse(body, errors, JSONC_OPTIONS);
  const first = errors[0];
  if (first === undefined) return value;
  const { line, column } = lineColumn(body, first.offset);
  const detail = `invalid JSON at line ${line}, column ${column}: ${REASONS[printParseErrorCode(first.error)] ?? 'syntax error'}`;
  throw new ConfigError(`${file ?? '(config)'}: ${detail}`, file, [{ server: null, field: '', message: detail }]);
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}
