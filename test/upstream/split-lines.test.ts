import { describe, expect, it } from 'vitest';
import { type CutLine, wholeLine } from '../../src/upstream/long-strings.js';
import { LineSplitter } from '../../src/upstream/split-lines.js';

const textOf = (line: string | CutLine) => (typeof line === 'string' ? line : wholeLine(line));

const lines = (splitter: LineSplitter, ...chunks: (string | Buffer)[]): string[] => {
  const out: string[] = [];
  for (const chunk of chunks)
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, (l) => out.push(textOf(l)));
  return out;
};

describe('LineSplitter', () => {
  it('reads whole lines in one chunk, \\n and \\r\\n', () => {
    expect(lines(new LineSplitter(), 'a\nbb\r\n\nccc\n')).toEqual(['a', 'bb', '', 'ccc']);
  });

  it('joins a line cut across chunks, however many', () => {
    const s = new LineSplitter();
    expect(lines(s, '{"a":', '1,', '"b":2}\n{"c"', ':3}\n')).toEqual(['{"a":1,"b":2}', '{"c":3}']);
  });

  it('keeps a character whose bytes are cut between chunks', () => {
    const bytes = Buffer.from('né€😀\n');
    const s = new LineSplitter();
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1), (l) => out.push(textOf(l)));
    expect(out).toEqual(['né€😀']);
  });

  it('joins pieces cut after an ASCII byte as text, and a piece cut inside a character as bytes', () => {
    const bytes = Buffer.from('{"t":"ab€cd"}\n');
    const euro = bytes.indexOf(0xe2);
    const s = new LineSplitter();
    // Three pieces: the first ends on ASCII, the second inside the euro sign.
    expect(lines(s, bytes.subarray(0, 3), bytes.subarray(3, euro + 1), bytes.subarray(euro + 1))).toEqual([
      '{"t":"ab€cd"}',
    ]);
    expect(lines(s, 'x'.repeat(70_000), 'y\n')).toEqual([`${'x'.repeat(70_000)}y`]);
  });

  it('refuses an unfinished line over the limit with the SDK error, and forgets it', () => {
    const s = new LineSplitter(8);
    expect(lines(s, '12345')).toEqual([]);
    expect(() => lines(s, '6789')).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    // Nothing of the refused line is left: the next line is read alone.
    expect(lines(s, 'ok\n')).toEqual(['ok']);
  });

  it('bounds each line, not each chunk: short lines in a long chunk pass, a long whole line does not', () => {
    const s = new LineSplitter(8, () => new Error('too long'));
    expect(lines(s, 'abc\ndef\nghi\njkl\n')).toEqual(['abc', 'def', 'ghi', 'jkl']);
    expect(() => lines(s, 'ok\n123456789\n')).toThrow('too long');
    expect(lines(s, '12345678\n')).toEqual(['12345678']);
  });

  it('forgets a held line on clear()', () => {
    const s = new LineSplitter();
    expect(lines(s, 'half')).toEqual([]);
    s.clear();
    expect(lines(s, 'new\n')).toEqual(['new']);
  });

  it('cuts the long strings out of a long line of ASCII without a backslash, whole or joined from pieces', () => {
    const seen: (string | CutLine)[] = [];
    const s = new LineSplitter();
    const push = (...chunks: string[]) => {
      for (const c of chunks) s.push(Buffer.from(c), (line) => seen.push(line));
    };
    const text = 'x'.repeat(5000);
    push(`{"text":"${text}"}\n`, '{"short":"yes"}\n');
    push(`{"text":"${text}`, `${text}"}\r\n`);
    push(`{"text":"${text}\\u0007"}\n`, `{"text":"${text}é"}\n`);
    push(`{"text":"${text}`, `é${text}"}\n`);
    expect(seen.map((line) => (typeof line === 'string' ? 'text' : line.long.map((l) => l.length)))).toEqual([
      [5000],
      'text',
      [10000],
      'text',
      'text',
      'text',
    ]);
    expect(seen[0]).toEqual({ text: '{"text":"\\u00000"}', long: [text] });
    expect(seen.map(textOf)[2]).toBe(`{"text":"${text}${text}"}`);
  });

  it('keeps nothing of a chunk past the call: one buffer that every read overwrites gives the same lines', () => {
    // As the stdout socket lends it (stdout-socket.ts): the same memory for every read.
    const lent = Buffer.alloc(64);
    const s = new LineSplitter();
    const out: string[] = [];
    const read = (text: string) => {
      const bytes = lent.subarray(0, lent.write(text, 'latin1'));
      s.push(bytes, (l) => out.push(textOf(l)));
      lent.fill(0x3f);
    };
    const long = `{"t":"${'z'.repeat(40)}"}`;
    read('{"a":');
    read('1}\n{"b"');
    read(`:2}\n${long.slice(0, 20)}`);
    read(`${long.slice(20)}\n`);
    expect(out).toEqual(['{"a":1}', '{"b":2}', long]);
  });
});
