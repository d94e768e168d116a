import { describe, expect, it } from 'vitest';
import { replicaIdFor } from '../../src/cluster/index.js';

describe('replicaIdFor', () => {
  it('takes BOTERNITY_REPLICA_ID as given', () => {
    expect(replicaIdFor({ env: { BOTERNITY_REPLICA_ID: ' web-1 ' }, home: '/h', host: 'x' })).toBe('web-1');
  });

  it('derives host-<6 hex of the home path>: stable for a home, different for another', () => {
    const one = replicaIdFor({ env: {}, home: '/srv/a', host: 'pod-7' });
    expect(one).toMatch(/^pod-7-[0-9a-f]{6}$/);
    expect(replicaIdFor({ env: {}, home: '/srv/a/', host: 'pod-7' })).toBe(one);
    expect(replicaIdFor({ env: {}, home: '/srv/b', host: 'pod-7' })).not.toBe(one);
    expect(replicaIdFor({ env: { BOTERNITY_REPLICA_ID: '' }, home: '/srv/a', host: 'pod-7' })).toBe(one);
  });

  it('makes an odd host name an id', () => {
    expect(replicaIdFor({ env: {}, home: '/h', host: '_weird host!' })).toMatch(/^weird-host--[0-9a-f]{6}$/);
    expect(replicaIdFor({ env: {}, home: '/h', host: '' })).toMatch(/^replica-[0-9a-f]{6}$/);
  });

  it('refuses an id that is not one, in one line naming the variable', () => {
    for (const bad of ['-x', 'a b', 'x'.repeat(65), 'é'])
      expect(() => replicaIdFor({ env: { BOTERNITY_REPLICA_ID: bad }, home: '/h' })).toThrow(
        /^BOTERNITY_REPLICA_ID ".*" is not a replica id: use 1-64 letters, digits, '_', '\.', ':' or '-', starting with a letter or digit$/,
      );
  });
});
