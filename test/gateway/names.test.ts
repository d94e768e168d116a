import { describe, expect, it } from 'vitest';
import {
  MAX_NAME,
  NAME_RE,
  namePublicItems,
  parseRewrittenUri,
  resolvePublicNames,
  toPublicName,
  toRewrittenUri,
} from '../../src/gateway/views/public-names.js';

const long70 = 't'.repeat(70);

describe('toPublicName', () => {
  it('joins server and item with __', () => {
    expect(toPublicName('everything', 'echo')).toBe('everything__echo');
  });

  it('replaces every character outside [A-Za-z0-9_-] with _', () => {
    expect(toPublicName('my.server', 'get file/v2')).toBe('my_server__get_file_v2');
    expect(toPublicName('srv', 'emoji😀')).toMatch(NAME_RE);
  });

  it('shortens long names to exactly 64 with an 8-hex hash suffix', () => {
    const name = toPublicName('everything', long70);
    expect(name).toHaveLength(MAX_NAME);
    expect(name).toMatch(NAME_RE);
    expect(name).toMatch(/^everything__t+_[0-9a-f]{8}$/);
  });

  it('keeps a name of exactly 64 characters as it is', () => {
    const item = 'x'.repeat(MAX_NAME - 'srv__'.length);
    expect(toPublicName('srv', item)).toBe(`srv__${item}`);
  });

  it('is deterministic', () => {
    expect(toPublicName('a.b', long70)).toBe(toPublicName('a.b', long70));
  });

  it('hashes the original, so long inputs that differ only in replaced characters stay distinct', () => {
    const a = toPublicName('a.b', long70);
    const b = toPublicName('a_b', long70);
    expect(a).not.toBe(b);
    expect(a.slice(0, 55)).toBe(b.slice(0, 55));
  });

  it('gives distinct outputs for many distinct long and odd inputs', () => {
    const names = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const name = toPublicName(`srv.${i % 7}`, `${'tool-'.repeat(15)}${i}`);
      expect(name).toMatch(NAME_RE);
      names.add(name);
    }
    expect(names.size).toBe(2_000);
  });
});

describe('resolvePublicNames', () => {
  it('lets the first in (server, name) order keep a contested name and suffixes the others', () => {
    const pairs = [
      { server: 'a_b', name: 'c' },
      { server: 'a.b', name: 'c' },
    ];
    expect(resolvePublicNames(pairs, 'prefixed')).toEqual(['a_b__c_2', 'a_b__c']);
  });

  it('skips suffixes that another listed name already uses', () => {
    const pairs = [
      { server: 'a.b', name: 'c' },
      { server: 'a_b', name: 'c' },
      { server: 'a_b', name: 'c_2' },
    ];
    expect(resolvePublicNames(pairs, 'prefixed')).toEqual(['a_b__c', 'a_b__c_3', 'a_b__c_2']);
  });

  it('resolves identity collisions across servers too', () => {
    const names = resolvePublicNames(
      [
        { server: 'two', name: 'echo' },
        { server: 'one', name: 'echo' },
      ],
      'identity',
    );
    expect(names).toEqual(['two__echo_2', 'echo']);
  });
});

describe('namePublicItems', () => {
  it('lists an item an upstream repeats once', () => {
    const { listed, routes } = namePublicItems(
      [
        { server: 's', item: { name: 'x', description: 'first' } },
        { server: 's', item: { name: 'x', description: 'again' } },
      ],
      'prefixed',
    );
    expect(listed).toEqual([{ name: 's__x', description: 'first' }]);
    expect(routes.get('s__x')).toEqual({ server: 's', name: 'x' });
  });
});

describe('rewritten URIs', () => {
  it('round-trip server and URI, whatever the server name', () => {
    for (const server of ['fs', 'my_server', 'a:b', 'x%y']) {
      const uri = toRewrittenUri(server, 'file:///tmp/a b.txt');
      expect(parseRewrittenUri(uri)).toEqual({ server, uri: 'file:///tmp/a b.txt' });
    }
  });

  it('are valid URLs', () => {
    expect(() => new URL(toRewrittenUri('my_server.v2', 'test://static/resource/1'))).not.toThrow();
  });

  it('parse to null for other URIs', () => {
    expect(parseRewrittenUri('file:///tmp/x')).toBeNull();
    expect(parseRewrittenUri('boternity:%E0%A4%A:x')).toBeNull();
  });
});
