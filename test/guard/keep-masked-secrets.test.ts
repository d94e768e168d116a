// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secret:NAME}` is config syntax under test, not a template
import { describe, expect, it } from 'vitest';
import { keepMaskedSecrets } from '../../src/guard/keep-masked-secrets.js';
import { MASKED } from '../../src/guard/mask-secrets.js';

describe('keepMaskedSecrets', () => {
  const entry = {
    command: 'x',
    env: { API_KEY: 'real-key', REF: '${secret:gh}' },
    headers: { Authorization: 'Bearer s' },
  };

  it('gives a masked env or header value back the value the file has for that name', () => {
    expect(
      keepMaskedSecrets(
        { env: { API_KEY: MASKED, MODE: 'fast' }, headers: { Authorization: MASKED, 'X-Team': 'a' } },
        entry,
      ),
    ).toEqual({ env: { API_KEY: 'real-key', MODE: 'fast' }, headers: { Authorization: 'Bearer s', 'X-Team': 'a' } });
  });

  it('keeps a value the user typed, and a reference as it is', () => {
    expect(keepMaskedSecrets({ env: { API_KEY: 'new-key', REF: '${secret:gh}' } }, entry)).toEqual({
      env: { API_KEY: 'new-key', REF: '${secret:gh}' },
    });
  });

  it('leaves out a masked value the file does not have (a preset or envFile gave it): the mask is never written', () => {
    expect(keepMaskedSecrets({ env: { FROM_PRESET: MASKED } }, entry)).toEqual({ env: {} });
    expect(keepMaskedSecrets({ headers: { H: MASKED } }, undefined)).toEqual({ headers: {} });
  });

  it('leaves other fields, null (removal) and a patch without env or headers alone', () => {
    const patch = { args: ['a', MASKED], env: null, requestTimeoutMs: 5 };
    expect(keepMaskedSecrets(patch, entry)).toEqual(patch);
  });
});
