/**
 * The requirement ids the sources cite (`(SPEC G6)`, `X8`, `B1–B4`, `section 7`) point to
 * something inside the repository: every one is a row of docs/requirements.md, whose links
 * lead to files and headings that exist, and which docs/architecture.md links to. The finder
 * itself is shown to catch an unknown id and to pass over look-alikes (`C0/C1`, `%A4%`, hex).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  citationsIn,
  citationsUnder,
  citingFiles,
  headingAnchor,
  readRequirementTable,
} from '../support/requirement-ids.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tablePath = 'docs/requirements.md';
const markdown = readFileSync(join(root, tablePath), 'utf8');
const table = readRequirementTable(markdown);
const citingDirs = ['src', 'machines', 'test', 'scripts', 'bench'];
/** This check and its finder, whose samples of wrong ids are not citations. */
const checker = ['test/architecture/requirement-ids.test.ts', 'test/support/requirement-ids.ts'];

/** Which citations name no row (or section) of the table, as `id at file:line`. */
function unknown(citations: readonly { id: string; where: string }[]): string[] {
  const ids = new Set(table.ids);
  const sections = new Set(table.sections.map((n) => `section ${n}`));
  return citations.filter((c) => !ids.has(c.id) && !sections.has(c.id)).map((c) => `${c.id} at ${c.where}`);
}

describe('requirement ids in the sources', () => {
  const citations = citationsUnder(root, citingDirs).filter((c) => !checker.some((f) => c.where.startsWith(`${f}:`)));

  it('reads every folder it names, and finds the citations there', () => {
    // Far fewer would mean the walk or the finder broke, and the check below passed on nothing.
    const files = citingFiles(root, citingDirs);
    for (const dir of citingDirs) expect(files.some((f) => f.startsWith(`${dir}/`))).toBe(true);
    expect(files).toContain('bench/call-path.mjs');
    expect(citations.length).toBeGreaterThan(100);
  });

  it('cites only ids and sections that docs/requirements.md lists', () => {
    expect(unknown(citations)).toEqual([]);
  });

  it('would report an id the table does not have, with its place', () => {
    const text = ['/**', ' * Bounded (SPEC X8, G9).', ' */', '// the bots (B1–B7) and SPEC Q1, section 12'].join('\n');
    const found = citationsIn(text).map((c) => ({ id: c.id, where: `x.ts:${c.line}` }));
    expect(unknown(found)).toEqual([
      'G9 at x.ts:2',
      'B6 at x.ts:4',
      'B7 at x.ts:4',
      'Q1 at x.ts:4',
      'section 12 at x.ts:4',
    ]);
  });

  it('reads ids alone, in lists and in ranges', () => {
    const ids = (text: string) => citationsIn(text).map((c) => c.id);
    expect(ids('(SPEC G1–G3; X8, issue 17) X5 acceptance, S4: pinged')).toEqual(['G1', 'G2', 'G3', 'X8', 'X5', 'S4']);
    expect(ids('tests (SPEC A1, section 7) and SPEC section 7')).toEqual(['A1', 'section 7', 'section 7']);
    expect(ids('a range backwards, G5–G2')).toEqual(['G5–G2']);
  });

  it('passes over look-alikes of ids', () => {
    const text = [
      'C0/C1 control characters',
      "parseRewrittenUri('boternity:%E0%A4%A:x')",
      '0xA1, #B50, #C6, \\xD3, a11y, A11y, v1.A1, X1.2, X10x, S3/G2',
      'HTTP/2 and H2, SHA-256, 413, 2025-11-25',
      'ADR 015 §8, ADR 022 §7, STACK.md section 0, RFC 9110 section 13, its section 13.1.2',
    ].join('\n');
    expect(citationsIn(text)).toEqual([]);
  });
});

describe('docs/requirements.md', () => {
  it('has each id once, in the specification’s areas', () => {
    expect(table.ids.length).toBeGreaterThan(40);
    expect(new Set(table.ids).size).toBe(table.ids.length);
    for (const id of table.ids) expect(id).toMatch(/^[SCGXABTKUD]\d{1,2}$/);
  });

  it('explains section 7, the contract', () => {
    expect(table.sections).toContain(7);
    expect(markdown).toMatch(/^## Section 7: the external interface$/m);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const m of markdown.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
      const [link, file = '', anchor] = m;
      const target = file === '' ? tablePath : join('docs', file);
      if (!existsSync(join(root, target))) {
        broken.push(link);
        continue;
      }
      if (anchor !== undefined && !anchorsOf(readFileSync(join(root, target), 'utf8')).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });

  it('names only source files that exist', () => {
    const named = [...markdown.matchAll(/`((?:src|machines)\/[^`\s]+\.tsx?)`/g)].map((m) => m[1] ?? '');
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });

  it('is linked from docs/architecture.md', () => {
    const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    expect(architecture).toContain('](requirements.md)');
  });

  it('anchors headings as GitHub does', () => {
    expect(headingAnchor('Events: `GET /api/events`')).toBe('events-get-apievents');
    expect(headingAnchor('## 8–11. Not built yet'.slice(3))).toBe('811-not-built-yet');
    expect(headingAnchor('Protocol eras: 2025-11-25 and 2026-07-28')).toBe('protocol-eras-2025-11-25-and-2026-07-28');
  });
});
