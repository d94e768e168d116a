/**
 * JSON.parse for config text with errors that say where: `<file>: invalid JSON at line 3,
 * column 9: …`. V8 gives a position for most errors but not for "Unexpected token", so a
 * small scanner finds it then.
 * @module
 */
import { ConfigError } from '../errors.js';

/** Parse config text (a leading BOM is ignored); throws a `ConfigError` with line and column. */
export function parseConfigJson(text: string, file: string | null): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    const reported = /at position (\d+)/.exec(String((error as Error).message));
    const offset = reported ? Number(reported[1]) : findJsonErrorOffset(body);
    const { line, column } = lineColumn(body, offset < 0 ? body.length : offset);
    const detail = `invalid JSON at line ${line}, column ${column}: ${reason((error as Error).message)}`;
    throw new ConfigError(`${file ?? '(config)'}: ${detail}`, file, [{ server: null, field: '', message: detail }], {
      cause: error,
    });
  }
}

/** V8's message without its position and excerpt, starting lowercase. */
function reason(message: string): string {
  const short = message
    .replace(/ in JSON at position \d+[\s\S]*$/, '')
    .replace(/, (?:\.\.\.)?"[\s\S]*" is not valid JSON$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return short.charAt(0).toLowerCase() + short.slice(1);
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

class JsonSyntaxAt extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at ${offset}`);
  }
}

/** The offset of the first JSON syntax error in `text`, or -1 if it is valid JSON. */
export function findJsonErrorOffset(text: string): number {
  // Sticky, so created per call: lastIndex is state.
  const numberAt = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  let i = 0;
  const fail = (): never => {
    throw new JsonSyntaxAt(i);
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const expect = (char: string) => {
    skipSpace();
    if (text.charAt(i) !== char) fail();
    i++;
  };
  const string = () => {
    expect('"');
    for (let char = text.charAt(i); char !== '"'; char = text.charAt(i)) {
      if (char === '' || char < ' ') fail();
      if (char !== '\\') i++;
      else if (text.charAt(i + 1) !== '' && '"\\/bfnrt'.includes(text.charAt(i + 1))) i += 2;
      else if (text.charAt(i + 1) === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
      else {
        i++; // V8 points at the character after the backslash
        fail();
      }
    }
    i++;
  };
  const list = (close: string, item: () => void) => {
    i++;
    skipSpace();
    let first = true;
    while (text.charAt(i) !== close) {
      if (!first) expect(',');
      item();
      skipSpace();
      first = false;
    }
    i++;
  };
  const member = () => {
    string();
    expect(':');
    value();
  };
  function value() {
    skipSpace();
    const char = text.charAt(i);
    numberAt.lastIndex = i;
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i)) ?? numberAt.exec(text)?.[0];
    if (char === '{') list('}', member);
    else if (char === '[') list(']', value);
    else if (char === '"') string();
    else if (literal !== undefined) i += literal.length;
    else {
      if (char === '-') i++; // a minus sign without digits: the error is what follows it
      fail();
    }
  }
  try {
    value();
    skipSpace();
    return i < text.length ? i : -1;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    throw error;
  }
}
