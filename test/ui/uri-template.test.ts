import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from '../../src/ui/uri-template.js';

describe('a resource template in the UI', () => {
  it('names each variable once, in order, modifiers read past', () => {
    expect(templateVariables('note://notes/{id}')).toEqual(['id']);
    expect(templateVariables('repo://{owner}/{repo}/issues{?state,page}{&owner}')).toEqual([
      'owner',
      'repo',
      'state',
      'page',
    ]);
    expect(templateVariables('file:///{+path}{/seg*}{#frag:3}')).toEqual(['path', 'seg', 'frag']);
    expect(templateVariables('plain://no/variables')).toEqual([]);
  });

  it('fills the values in, encoded as each operator says, empty ones left out', () => {
    expect(expandTemplate('note://notes/{id}', { id: 'a b/c' })).toBe('note://notes/a%20b%2Fc');
    expect(expandTemplate('file:///{+path}', { path: 'srv/a b.txt' })).toBe('file:///srv/a%20b.txt');
    expect(expandTemplate('repo://x/issues{?state,page}', { state: 'open', page: '' })).toBe(
      'repo://x/issues?state=open',
    );
    expect(expandTemplate('repo://x{/a,b}{;c}{.d}{#e}', { a: '1', b: '2', c: '3', d: 'json', e: 'top' })).toBe(
      'repo://x/1/2;c=3.json#top',
    );
    expect(expandTemplate('q://{x}', {})).toBe('q://');
  });
});
