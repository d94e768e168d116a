/**
 * How the audit names an agent's client (X7, issue 12): `name/version` from its
 * `clientInfo`, the name alone without a version, bounded like every stored name.
 */
import { describe, expect, it } from 'vitest';
import { clientNameOf } from '../../../src/gateway/session/audit-request.js';
import { AUDIT_NAME_MAX } from '../../../src/storage/audit-writer.js';

describe('clientNameOf', () => {
  it('joins name and version, keeps a bare name, and has nothing for no client info', () => {
    expect(clientNameOf({ name: 'claude-code', version: '2.1.330' })).toBe('claude-code/2.1.330');
    expect(clientNameOf({ name: 'bare', version: '' })).toBe('bare');
    expect(clientNameOf(null)).toBeNull();
    expect(clientNameOf(undefined)).toBeNull();
  });

  it('cuts a huge name to the bound on stored names, saying how long it was', () => {
    const named = clientNameOf({ name: 'n'.repeat(100_000), version: '1' });
    expect(named).toHaveLength(AUDIT_NAME_MAX);
    expect(named?.endsWith('… (100002 chars)')).toBe(true);
  });
});
