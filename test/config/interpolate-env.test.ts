// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../../src/config/interpolate-env.js';

describe('interpolateEnv', () => {
  const env = { TOKEN: 'secret', HOST: 'example.com', EMPTY: '' };

  it('replaces references in every string of nested objects and arrays', () => {
    const raw = {
      a: 'Bearer ${env:TOKEN}',
      b: ['https://${env:HOST}/x', { c: '${env:TOKEN}@${env:HOST}' }],
      n: 5,
      t: true,
      z: null,
    };
    const { value, issues } = interpolateEnv(raw, env);
    expect(issues).toEqual([]);
    expect(value).toEqual({
      a: 'Bearer secret',
      b: ['https://example.com/x', { c: 'secret@example.com' }],
      n: 5,
      t: true,
      z: null,
    });
  });

  it('treats an empty variable as set', () => {
    expect(interpolateEnv('x${env:EMPTY}y', env)).toEqual({ value: 'xy', issues: [] });
  });

  it('reports each missing variable with the path of the string', () => {
    const { issues } = interpolateEnv({ headers: { Authorization: '${env:NOPE} ${env:ALSO_NOPE}' } }, env, [
      'mcpServers',
      'github',
    ]);
    expect(issues).toEqual([
      { path: ['mcpServers', 'github', 'headers', 'Authorization'], message: 'environment variable NOPE is not set' },
      {
        path: ['mcpServers', 'github', 'headers', 'Authorization'],
        message: 'environment variable ALSO_NOPE is not set',
      },
    ]);
  });

  it('reports malformed variable names', () => {
    const { issues } = interpolateEnv({ args: ['${env:not-valid}'] }, env);
    expect(issues).toEqual([
      { path: ['args', 0], message: expect.stringContaining('"${env:not-valid}" is not a valid reference') },
    ]);
  });

  it('keeps $${env:VAR} as the literal text ${env:VAR}', () => {
    expect(interpolateEnv('$${env:TOKEN} and ${env:TOKEN}', env)).toEqual({
      value: '${env:TOKEN} and secret',
      issues: [],
    });
  });

  it('leaves object keys and non-reference dollars alone', () => {
    const { value } = interpolateEnv({ '${env:TOKEN}': '$HOME ${HOST} $5' }, env);
    expect(value).toEqual({ '${env:TOKEN}': '$HOME ${HOST} $5' });
  });
});
