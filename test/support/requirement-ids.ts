/**
 * The specification's requirement ids as the sources cite them (`(SPEC G6)`, `X8,`, `B1–B4`,
 * `section 7`) and as docs/requirements.md lists them, for the check that every cited id is
 * one the docs explain.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One id (or section) named in a source file. */
export type Citation = {
  /** `G6`, or `section 7`. */
  readonly id: string;
  /** `src/gateway/x.ts:12`. */
  readonly where: string;
};

/** What the requirement table lists. */
export type RequirementTable = {
  /** The ids of its rows, in order. */
  readonly ids: readonly string[];
  /** The specification's section numbers it explains. */
  readonly sections: readonly number[];
};

/**
 * An id of an area letter and a number, alone or as a range in one area (`B1–B4`, `G1-G3`). Not a
 * citation when glued to a word, a path or an escape: `%A4%` (a URL escape), `C0/C1`
 * (control characters), `0xA1`, `#B50`, `v1.A1`, `A11y`, `X1.2`.
 */
const areaId = /(?<![\w%/\\.#$-])([SCGXABTKUD])(\d{1,2})(?:[–—-]\1(\d{1,2}))?(?![\w/%]|\.\d)/g;

/** After the word SPEC, any letter and number is an id (so `SPEC Q1` is checked too). */
const specId = /\bSPEC\s+([A-Z]\d{1,2})\b/g;

/** A section of the specification: `section 7`, `SPEC §7`; not `STACK.md section 0`, an ADR's or RFC's, nor `section 13.1`. */
const section = /(?<!\.md |ADR \d+ |RFC \d+ )\bsection (\d+)\b(?!\.\d)|\bSPEC §(\d+)/gi;

/** Every requirement id and specification section `text` cites, each with its line number. */
export function citationsIn(text: string): { id: string; line: number }[] {
  const found: { id: string; line: number; at: number }[] = [];
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  for (const m of text.matchAll(areaId)) {
    const [, letter = '', from = '', to] = m;
    const at = m.index;
    if (to === undefined) {
      found.push({ id: `${letter}${from}`, line: lineOf(at), at });
      continue;
    }
    // A range backwards (`G5–G2`) names nothing: reported as written.
    if (Number(to) < Number(from)) {
      found.push({ id: m[0], line: lineOf(at), at });
      continue;
    }
    for (let n = Number(from); n <= Number(to); n++) found.push({ id: `${letter}${n}`, line: lineOf(at), at });
  }
  for (const m of text.matchAll(specId)) {
    const id = m[1] ?? '';
    if (!found.some((f) => f.at === m.index + m[0].length - id.length))
      found.push({ id, line: lineOf(m.index), at: m.index });
  }
  for (const m of text.matchAll(section))
    found.push({ id: `section ${m[1] ?? m[2]}`, line: lineOf(m.index), at: m.index });
  return found.map(({ id, line }) => ({ id, line }));
}

/** Source files (code and scripts) under `dirs` of `root`, root-relative with `/`. */
export function citingFiles(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(?:[cm]?[jt]sx?|sh)$/.test(e.name))
      .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
      .filter((file) => !file.split('/').includes('node_modules')),
  );
}

/** Every citation in the files under `dirs` of `root`. */
export function citationsUnder(root: string, dirs: readonly string[]): Citation[] {
  return citingFiles(root, dirs).flatMap((file) =>
    citationsIn(readFileSync(join(root, file), 'utf8')).map((c) => ({ id: c.id, where: `${file}:${c.line}` })),
  );
}

/** The rows of docs/requirements.md: `| G6 | … |` for an id, `| 7 | … |` for a section. */
export function readRequirementTable(markdown: string): RequirementTable {
  const ids = [...markdown.matchAll(/^\| ([A-Z]\d{1,2}) +\|/gm)].map((m) => m[1] ?? '');
  const sections = [...markdown.matchAll(/^\| (\d{1,2}) +\|/gm)].map((m) => Number(m[1]));
  return { ids, sections };
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside fenced code). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) anchors.add(headingAnchor(m[1] ?? ''));
  }
  return anchors;
}
