/**
 * The bots meet the gateway, the HTTP layer, the hub and the CLI only through the ports
 * that `main.ts` hands over (STYLE 2.7): nothing in src/bots imports them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../src/bots/', import.meta.url));

describe('src/bots boundary', () => {
  it('imports nothing from gateway/, http/, hub/, cli/ or main', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) =>
      [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/from '\.\.\/(gateway|http|hub|cli|main)\b[^']*'/g)].map(
        (m) => `${file} → ${m[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
