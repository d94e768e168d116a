import { describe, expect, it } from 'vitest';
import { parseTemplate, referencesIn } from '../../src/bots/parse-template.js';
import { renderString, renderValue } from '../../src/bots/resolve-template.js';
import { TemplateError } from '../../src/errors.js';

const scope = {
  input: { path: '/tmp', n: 3, flags: [true], 'odd key': 'x', nested: { a: [{ b: 'deep' }] } },
  steps: { list: { result: { content: [{ type: 'text', text: 'a.txt' }] }, text: 'a.txt' } },
};

describe('templates', () => {
  it('parses literals, names, indexes and quoted keys', () => {
    expect(parseTemplate('at {{ input.path }}/{{steps.list.result.content[0].text}} {{input["odd key"]}}')).toEqual([
      'at ',
      { source: 'input.path', path: ['input', 'path'] },
      '/',
      { source: 'steps.list.result.content[0].text', path: ['steps', 'list', 'result', 'content', 0, 'text'] },
      ' ',
      { source: 'input["odd key"]', path: ['input', 'odd key'] },
    ]);
    expect(parseTemplate('no refs } here')).toEqual(['no refs } here']);
    expect(parseTemplate('\\{{literal}}')).toEqual(['{{literal}}']);
  });

  it('substitutes a whole value with its own type, and inside a string as text', () => {
    expect(renderString('{{input.n}}', scope)).toBe(3);
    expect(renderString('{{input.flags}}', scope)).toEqual([true]);
    expect(renderString(' {{input.n}}', scope)).toBe(' 3');
    expect(renderString('{{input.flags}} and {{input.nested.a[0].b}}', scope)).toBe('[true] and deep');
    expect(renderValue({ a: ['{{input.path}}', 1, null, { b: '{{steps.list.text}}' }] }, scope)).toEqual({
      a: ['/tmp', 1, null, { b: 'a.txt' }],
    });
  });

  it('never reaches prototypes, getters or functions', () => {
    for (const text of ['{{input.constructor}}', '{{input.__proto__}}', '{{input.path.length}}', '{{input.toString}}'])
      expect(() => renderString(text, scope)).toThrow(TemplateError);
    const own = JSON.parse('{"__proto__": {"polluted": 1}}');
    expect(renderString('{{x.__proto__.polluted}}', { x: own })).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the first missing part of a path', () => {
    expect(() => renderString('{{steps.list.result.content[5].text}}', scope)).toThrow(
      '{{steps.list.result.content[5].text}}: steps.list.result.content[5] is not there',
    );
    expect(() => renderString('{{input.flags.x}}', scope)).toThrow('input.flags.x is not there');
  });

  it.each([
    ['{{}}', 'empty reference'],
    ['{{1abc}}', 'expected a name at character 1'],
    ['{{input.}}', 'expected a name at character 7'],
    ['{{input[01]}}', 'expected an index or a quoted key'],
    ['{{input["a"x]}}', 'expected "]" after the quoted key'],
    ['{{input["a}}', 'a quoted key is not closed'],
    ['{{input + 1}}', 'unexpected " " at character 6'],
    ['{{process.exit()}}', 'unexpected "(" at character 13'],
    [`{{${'a.'.repeat(200)}a}}`, 'longer than 256 characters'],
    [`{{${'a.'.repeat(40)}a}}`, 'deeper than 32 steps'],
  ])('refuses %s', (text, message) => {
    expect(() => parseTemplate(text)).toThrow(message);
  });

  it('finds references in a JSON value with the path of their string', () => {
    expect(referencesIn({ a: ['x', '{{input.a}}'], b: { c: 'y{{steps.s.text}}' } }).map((r) => r.at)).toEqual([
      ['a', 1],
      ['b', 'c'],
    ]);
  });
});
