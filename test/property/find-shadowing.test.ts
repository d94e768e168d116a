/**
 * Cross-server shadowing (SPEC X5) through the name index answers exactly what the
 * two-RegExps-per-pair check it replaced answered, on names and texts drawn to hit its
 * edges: case, the `iu` foldings of U+017F and U+212A, names outside `[A-Za-z0-9_-]`,
 * quotes inside names, a tool's own name and server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findShadowing, type OtherTool, shadowingIndex } from '../../src/guard/find-shadowing.js';

// The check as it was (one token and one quoted RegExp per other tool).
const IDENT = 'A-Za-z0-9_\\-';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const identifierLike = (name: string) => /[_\-.0-9]/.test(name) || /[a-z][A-Z]/.test(name);
function reference(server: string, tool: { name: string; description?: string; title?: string }, others: OtherTool[]) {
  const text = [tool.description, tool.title].filter(Boolean).join('\n');
  if (!text) return [];
  const found = new Set<string>();
  for (const other of others) {
    if (other.server === server) continue;
    const publicName = `${other.server}__${other.name}`;
    const token = (name: string) => new RegExp(`(^|[^${IDENT}])${escapeRegExp(name)}($|[^${IDENT}])`, 'iu');
    const quoted = new RegExp(`[\`'"]${escapeRegExp(other.name)}[\`'"]`, 'u');
    if (
      token(publicName).test(text) ||
      (other.name !== tool.name && ((identifierLike(other.name) && token(other.name).test(text)) || quoted.test(text)))
    )
      found.add(publicName);
  }
  return [...found].sort();
}

const piece = fc.constantFrom('send', 'Send', 'email', 'read', 'a', 'ſend', 'K', 'x.y', 'é', '_', '-', '1', 'mail');
const name = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
const server = fc.constantFrom('mail', 'fs', 'calc', 'Mail', 'we.ird');
const other = fc.record({
  server,
  name: fc.oneof(
    name,
    name.map((n) => `${n}"q`),
  ),
});
const glue = fc.constantFrom(' ', '`', "'", '"', '.', '\n', ', ', '-', 'ſ', 'K', '(', 'x');
const recase = (text: string, how: number) =>
  how === 0 ? text : how === 1 ? text.toUpperCase() : text.replaceAll('s', 'ſ').replaceAll('k', '\u212a');
/** Other tools, and a text made mostly of their names (bare or public, re-cased) and glue. */
const case_ = fc.array(other, { minLength: 1, maxLength: 12 }).chain((others) => {
  const named = fc
    .tuple(fc.constantFrom(...others), fc.boolean(), fc.integer({ min: 0, max: 2 }))
    .map(([o, pub, how]) => recase(pub ? `${o.server}__${o.name}` : o.name, how));
  const text = fc.array(fc.oneof(named, glue, glue, name), { maxLength: 10 }).map((parts) => parts.join(''));
  return fc.record({
    others: fc.constant(others),
    server: fc.oneof(server, fc.constantFrom(...others.map((o) => o.server))),
    ownName: fc.oneof(name, fc.constantFrom(...others.map((o) => o.name))),
    description: text,
    title: fc.option(text, { nil: undefined }),
  });
});

describe('findShadowing through the index', () => {
  it('answers as the pairwise RegExps did', () => {
    fc.assert(
      fc.property(case_, ({ others, server: own, ownName, description, title }) => {
        const tool = { name: ownName, description, ...(title === undefined ? {} : { title }) };
        expect(findShadowing(own, tool, others)).toEqual(reference(own, tool, others));
      }),
      { numRuns: 1000 },
    );
  });

  it('checks 2,000 tools against 2,000 others in one pass each', () => {
    const others = Array.from({ length: 2000 }, (_, i) => ({ server: `s${i % 10}`, name: `tool_${i}` }));
    const index = shadowingIndex(others);
    const found = Array.from({ length: 2000 }, (_, i) =>
      index.find('t', { name: `own_${i}`, description: `Tool ${i}: call tool_${i} or \`s3__tool_3\` first.` }),
    );
    expect(found[5]).toEqual(['s3__tool_3', 's5__tool_5']);
    expect(found.every((names) => names.length >= 1)).toBe(true);
  });
});
