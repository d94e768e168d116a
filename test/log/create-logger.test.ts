import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../src/log/create-logger.js';

describe('maskSecrets', () => {
  it('replaces every occurrence of every known secret, and leaves other text alone', () => {
    const secrets = new Set(['s3cr3t-token', 'other-key']);
    const line = '{"msg":"upstream transport error","err":"denied for Bearer s3cr3t-token (s3cr3t-token)"}';
    expect(maskSecrets(line, secrets)).toBe(
      '{"msg":"upstream transport error","err":"denied for Bearer [redacted] ([redacted])"}',
    );
    expect(maskSecrets('nothing here', secrets)).toBe('nothing here');
  });

  it('ignores secrets too short to mask safely', () => {
    expect(maskSecrets('abc abc', new Set(['abc']))).toBe('abc abc');
  });
});
