/**
 * The architecture as declared (docs/architecture/parts.json) and as imported: every source
 * file belongs to a part, every import is an arrow the picture allows, every allowed arrow is
 * used. The checker itself is shown to catch an undeclared import in a tree made for it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArrows, importsOf, type Picture } from '../support/import-arrows.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const picture = JSON.parse(readFileSync(join(root, 'docs/architecture/parts.json'), 'utf8')) as Picture;

describe('the architecture of boternity', () => {
  const report = checkArrows(root, ['src', 'machines'], picture);

  it('puts every source file in a declared part', () => {
    expect(report.unassigned).toEqual([]);
  });

  it('has no import arrow the picture does not declare', () => {
    expect(report.undeclared).toEqual([]);
  });

  it('declares no arrow that nothing uses', () => {
    expect(report.unused).toEqual([]);
  });

  it("imports a part with an entry through that entry (its folder's index.ts) or a declared direct file", () => {
    expect(report.deep).toEqual([]);
  });

  it('gives every arrow a reason, and every folder part of src/gateway/ and src/http/ its index.ts as entry', () => {
    const parts = Object.entries(picture.parts);
    const reasonless = parts.flatMap(([n, p]) =>
      Object.entries(p.uses)
        .filter(([, why]) => !why || why.startsWith('TODO'))
        .map(([t]) => `${n} → ${t}`),
    );
    expect(reasonless).toEqual([]);
    for (const [name, part] of parts) {
      const folder = part.files.map((f) => f.match(/^(src\/(?:gateway|http)\/.+)\/\*\*$/)?.[1]).find(Boolean);
      if (folder) expect(part.entry, name).toBe(`${folder}/index.ts`);
    }
  });

  it('keeps the API part from importing the MCP part', () => {
    expect(Object.keys(picture.parts['http-api']?.uses ?? {})).not.toContain('http-mcp');
  });

  it('keeps machines/ pure and xstate inside the hub', () => {
    const parts = picture.parts;
    expect(parts.machines?.uses).toEqual({});
    expect(parts.machines?.packages).toEqual(['xstate']);
    const xstate = Object.entries(parts)
      .filter(([, p]) => p.packages.includes('xstate'))
      .map(([n]) => n);
    expect(xstate.sort()).toEqual(['hub', 'machines']);
    expect(parts.guard?.uses).toEqual({});
  });

  it('is linked from docs/architecture.md', () => {
    expect(readFileSync(join(root, 'docs/architecture.md'), 'utf8')).toContain('architecture/parts.json');
  });
});

describe('the checker', () => {
  const tree = mkdtempSync(join(tmpdir(), 'bnity-arrows-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    writeFileSync(join(tree, file), text);
  };
  const small: Picture = {
    parts: {
      core: { files: ['src/core/**'], uses: {}, packages: ['node:*'] },
      app: { files: ['src/app/**'], uses: { core: 'uses the core' }, packages: [] },
    },
  };

  it('passes a tree that keeps to its picture', () => {
    write('src/core/a.ts', "import { x } from 'node:fs';\nexport const a = x;\n");
    write('src/app/b.ts', "import { a } from '../core/a.js';\nexport const b = a;\n");
    expect(checkArrows(tree, ['src'], small)).toEqual({ undeclared: [], unused: [], unassigned: [], deep: [] });
  });

  it('catches an undeclared import, an undeclared package, a stray file and an unused arrow', () => {
    write(
      'src/core/c.ts',
      "import type {\n  B,\n} from '../app/b.js';\nexport { z } from 'zod';\nconst later = () => import('../app/b.js');\n",
    );
    write('src/stray/d.ts', 'export const d = 1;\n');
    write('src/app/b.ts', 'export const b = 2;\n');
    expect(checkArrows(tree, ['src'], small)).toEqual({
      undeclared: [
        'core → app (src/core/c.ts imports ../app/b.js)',
        'core → package zod (src/core/c.ts imports zod)',
        'core → app (src/core/c.ts imports ../app/b.js)',
      ],
      unused: ['app → core'],
      unassigned: ['src/stray/d.ts'],
      deep: [],
    });
  });

  it("catches an import past another part's entry, and passes the entry and a declared direct file", () => {
    const tree2 = mkdtempSync(join(tmpdir(), 'bnity-entries-'));
    const put = (file: string, text: string) => {
      mkdirSync(dirname(join(tree2, file)), { recursive: true });
      writeFileSync(join(tree2, file), text);
    };
    try {
      const entries: Picture = {
        parts: {
          inner: {
            files: ['src/inner/**'],
            entry: 'src/inner/index.ts',
            direct: ['src/inner/light.ts'],
            uses: {},
            packages: [],
          },
          outer: { files: ['src/outer/**'], uses: { inner: 'uses it' }, packages: [] },
        },
      };
      put('src/inner/deep.ts', 'export const deep = 1;\n');
      put('src/inner/light.ts', 'export const light = 2;\n');
      put('src/inner/index.ts', "export { deep } from './deep.js';\n");
      put(
        'src/outer/a.ts',
        "import { deep } from '../inner/index.js';\nimport { light } from '../inner/light.js';\nexport const a = deep + light;\nexport const later = () => import('../inner/light.js');\n",
      );
      expect(checkArrows(tree2, ['src'], entries)).toEqual({ undeclared: [], unused: [], unassigned: [], deep: [] });
      put('src/outer/b.ts', "import { deep } from '../inner/deep.js';\nexport const b = deep;\n");
      expect(checkArrows(tree2, ['src'], entries).deep).toEqual([
        'outer → inner (src/outer/b.ts imports ../inner/deep.js, not src/inner/index.ts)',
      ]);
    } finally {
      rmSync(tree2, { recursive: true, force: true });
    }
  });

  it('reads static, re-exported, side-effect and dynamic imports, and no imports in comments', () => {
    expect(
      importsOf(
        "import a from 'a';\nimport type {\n  B,\n} from './b.js';\nexport * from './c.js';\nimport './d.js';\n/**\n * import x from 'not-me';\n */\nawait import('./e.js');\n",
      ),
    ).toEqual(['a', './b.js', './c.js', './d.js', './e.js']);
  });
});
