/**
 * The architecture check: every import of every source file, as an arrow from its part to
 * another part or to a package, compared with a declared picture (docs/architecture/parts.json).
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** One part of the picture. */
export type Part = {
  readonly files: readonly string[];
  /**
   * The file other parts import it through (its folder's `index.ts`, ADR 031); without one,
   * any file of the part (a part of one file is its own entry).
   */
  readonly entry?: string;
  /** Files other parts may import themselves besides the entry: start-up and import() (ADR 031 §3). */
  readonly direct?: readonly string[];
  readonly uses: Readonly<Record<string, string>>;
  readonly packages: readonly string[];
};

/** The declared picture. */
export type Picture = { readonly parts: Readonly<Record<string, Part>> };

/** What the check found. */
export type ArrowReport = {
  /** `part → other (file imports spec)` for each import the picture does not allow. */
  readonly undeclared: string[];
  /** `part → other` for each declared arrow no import uses. */
  readonly unused: string[];
  /** Source files that belong to no part. */
  readonly unassigned: string[];
  /** `part → other (file imports spec, not other's entry)` for each import past a part's entry. */
  readonly deep: string[];
};

/** A glob of `*` (within a folder) and `**` (any depth) as a regular expression. */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  // `**` first (any depth), then `*` (within one folder).
  const pattern = escaped
    .split('**')
    .map((piece) => piece.replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

/** The specifiers `source` imports or re-exports, statically or dynamically. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm))
    found.push(m[1] ?? '');
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(m[1] ?? '');
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1] ?? '');
  return found;
}

/** The specifiers `source` imports statically for their values: not `import type`, not `import()`. */
export function valueImportsOf(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] ?? '',
  );
}

/** The root-relative `.ts` file a relative specifier of `file` names. */
function resolveImport(file: string, spec: string): string {
  return normalize(join(dirname(file), spec))
    .split('\\')
    .join('/')
    .replace(/\.js$/, '.ts');
}

/**
 * The files and packages loading `entry` (root-relative) loads: its static value imports,
 * followed through our own files (what a bundle evaluates with it, before any `import()`).
 */
export function staticReach(root: string, entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const open = [entry];
  while (open.length > 0) {
    const file = open.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of valueImportsOf(readFileSync(join(root, file), 'utf8'))) {
      if (spec.startsWith('.')) open.push(resolveImport(file, spec));
      else packages.add(spec);
    }
  }
  return { files, packages };
}

/** The TypeScript files (`.ts`, `.tsx`) under `dirs` of `root`, as root-relative paths with `/`. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/')),
  );
}

/** The package an import specifier names (`node:fs`, `zod`, `@scope/name`), or null for a relative one. */
function packageOf(spec: string): string | null {
  if (spec.startsWith('.')) return null;
  if (spec.startsWith('node:')) return 'node:*';
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

/** Check the sources under `dirs` of `root` against `picture`. */
export function checkArrows(root: string, dirs: readonly string[], picture: Picture): ArrowReport {
  const matchers = Object.entries(picture.parts).map(([name, part]) => ({
    name,
    part,
    res: part.files.map(globToRegExp),
  }));
  const partOf = (file: string) => matchers.find((m) => m.res.some((re) => re.test(file)));
  const used = new Set<string>();
  const undeclared: string[] = [];
  const unassigned: string[] = [];
  const deep: string[] = [];
  for (const file of sourceFiles(root, dirs)) {
    const from = partOf(file);
    if (!from) {
      unassigned.push(file);
      continue;
    }
    for (const spec of importsOf(readFileSync(join(root, file), 'utf8'))) {
      const pkg = packageOf(spec);
      if (pkg !== null) {
        if (!from.part.packages.includes(pkg))
          undeclared.push(`${from.name} → package ${pkg} (${file} imports ${spec})`);
        continue;
      }
      const target = resolveImport(file, spec);
      const to = partOf(target);
      if (!to) {
        undeclared.push(`${from.name} → nowhere (${file} imports ${spec})`);
        continue;
      }
      if (to.name === from.name) continue;
      if (Object.hasOwn(from.part.uses, to.name)) used.add(`${from.name} → ${to.name}`);
      else undeclared.push(`${from.name} → ${to.name} (${file} imports ${spec})`);
      const { entry, direct = [] } = to.part;
      if (entry !== undefined && target !== entry && !direct.includes(target))
        deep.push(`${from.name} → ${to.name} (${file} imports ${spec}, not ${entry})`);
    }
  }
  const unused = Object.entries(picture.parts).flatMap(([name, part]) =>
    Object.keys(part.uses)
      .map((to) => `${name} → ${to}`)
      .filter((arrow) => !used.has(arrow)),
  );
  return { undeclared, unused, unassigned, deep };
}
