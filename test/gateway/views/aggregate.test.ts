import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildView, type ViewServer } from '../../../src/gateway/views/aggregate.js';
import { NAME_RE } from '../../../src/gateway/views/public-names.js';
import type { Catalog } from '../../../src/upstream/types.js';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: 'object' }, ...extra });

function upstream(server: string, catalog: Partial<Catalog>, extra: Partial<ViewServer> = {}): ViewServer {
  const full: Catalog = { tools: [], resources: [], resourceTemplates: [], prompts: [], ...catalog };
  return { server, config: {}, catalog: full, ...extra };
}

describe('buildView tools', () => {
  it('prefixes names and keeps every other field', () => {
    const echo = tool('echo', {
      title: 'Echo',
      description: 'says it back',
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      _meta: { x: 1 },
    });
    const view = buildView({ naming: 'prefixed', servers: [upstream('everything', { tools: [echo, tool('add')] })] });
    expect(view.tools).toEqual([
      { ...echo, name: 'everything__echo' },
      { ...tool('add'), name: 'everything__add' },
    ]);
    expect(view.tool('everything__echo')).toEqual({ server: 'everything', name: 'echo' });
    expect(view.tool('echo')).toBeNull();
  });

  it('leaves names unchanged with identity naming', () => {
    const view = buildView({ naming: 'identity', servers: [upstream('fs', { tools: [tool('read_file')] })] });
    expect(view.tools.map((t) => t.name)).toEqual(['read_file']);
    expect(view.tool('read_file')).toEqual({ server: 'fs', name: 'read_file' });
    expect(view.tool('fs__read_file')).toBeNull();
  });

  it('lists a 70-character tool within 64 characters and routes it back', () => {
    const long = 'a'.repeat(70);
    const view = buildView({ naming: 'prefixed', servers: [upstream('srv.one', { tools: [tool(long)] })] });
    const [listed] = view.tools;
    expect(listed?.name).toMatch(NAME_RE);
    expect(view.tool(listed?.name ?? '')).toEqual({ server: 'srv.one', name: long });
  });

  it('resolves collisions the same way whatever the server order', () => {
    const a = upstream('a.b', { tools: [tool('c')] });
    const b = upstream('a_b', { tools: [tool('c'), tool('c_2')] });
    const names = (servers: ViewServer[]) => {
      const view = buildView({ naming: 'prefixed', servers });
      return Object.fromEntries(view.tools.map((t) => [t.name, view.tool(t.name)]));
    };
    const forward = names([a, b]);
    expect(forward).toEqual({
      a_b__c: { server: 'a.b', name: 'c' },
      a_b__c_3: { server: 'a_b', name: 'c' },
      a_b__c_2: { server: 'a_b', name: 'c_2' },
    });
    expect(names([b, a])).toEqual(forward);
  });

  it('does not list a filtered tool and refuses to route it', () => {
    const view = buildView({
      naming: 'prefixed',
      servers: [
        upstream('s', { tools: [tool('echo'), tool('add'), tool('rm')] }, { config: { deniedTools: ['rm'] } }),
        upstream('t', { tools: [tool('echo'), tool('add')] }, { permission: { allowed: ['add'] } }),
      ],
    });
    expect(view.tools.map((t) => t.name)).toEqual(['s__echo', 's__add', 't__add']);
    expect(view.tool('s__rm')).toBeNull();
    expect(view.tool('t__echo')).toBeNull();
  });

  it('lists servers in input order and items in upstream order', () => {
    const view = buildView({
      naming: 'prefixed',
      servers: [upstream('z', { tools: [tool('b'), tool('a')] }), upstream('y', { tools: [tool('c')] })],
    });
    expect(view.tools.map((t) => t.name)).toEqual(['z__b', 'z__a', 'y__c']);
  });
});

describe('buildView prompts', () => {
  it('names prompts like tools and routes them, with no tool filter', () => {
    const view = buildView({
      naming: 'prefixed',
      servers: [
        upstream(
          'everything',
          { prompts: [{ name: 'simple_prompt', description: 'hi' }] },
          { config: { allowedTools: [] } },
        ),
      ],
    });
    expect(view.prompts).toEqual([{ name: 'everything__simple_prompt', description: 'hi' }]);
    expect(view.prompt('everything__simple_prompt')).toEqual({ server: 'everything', name: 'simple_prompt' });
    expect(view.prompt('simple_prompt')).toBeNull();
  });
});

describe('buildView resources', () => {
  const template = { uriTemplate: 'test://static/resource/{id}', name: 'static' };
  const one = upstream('one', {
    resources: [
      { uri: 'test://static/resource/1', name: 'r1' },
      { uri: 'file:///shared.txt', name: 'shared' },
    ],
    resourceTemplates: [template],
  });
  const two = upstream('two', {
    resources: [{ uri: 'file:///shared.txt', name: 'shared' }],
    resourceTemplates: [template, { uriTemplate: 'two://{path}', name: 'two' }],
  });
  const view = buildView({ naming: 'prefixed', servers: [one, two] });

  it('passes unique URIs through and routes them exactly', () => {
    expect(view.resources[0]).toEqual({ uri: 'test://static/resource/1', name: 'r1' });
    expect(view.resource('test://static/resource/1')).toEqual({ server: 'one', uri: 'test://static/resource/1' });
  });

  it('routes an unlisted URI through the first matching template', () => {
    expect(view.resource('test://static/resource/5')).toEqual({ server: 'one', uri: 'test://static/resource/5' });
    expect(view.resource('two://a')).toEqual({ server: 'two', uri: 'two://a' });
    expect(view.resource('test://elsewhere/5')).toBeNull();
  });

  it('rewrites the later copy of a duplicate URI and maps it back', () => {
    const rewritten = 'boternity:two:file:///shared.txt';
    expect(view.resources.map((r) => r.uri)).toEqual(['test://static/resource/1', 'file:///shared.txt', rewritten]);
    expect(view.resource('file:///shared.txt')).toEqual({ server: 'one', uri: 'file:///shared.txt' });
    expect(view.resource(rewritten)).toEqual({ server: 'two', uri: 'file:///shared.txt' });
    expect(view.publicUri('two', 'file:///shared.txt')).toBe(rewritten);
    expect(view.publicUri('one', 'file:///shared.txt')).toBe('file:///shared.txt');
  });

  it('reaches a shadowed template of a later server through its rewritten URI', () => {
    const uri = view.publicUri('two', 'test://static/resource/5');
    expect(uri).toBe('boternity:two:test://static/resource/5');
    expect(view.resource(uri)).toEqual({ server: 'two', uri: 'test://static/resource/5' });
    expect(view.resource('boternity:two:test://nothing')).toBeNull();
    expect(view.resource('boternity:absent:file:///shared.txt')).toBeNull();
  });

  it('lists identical templates once and routes them to the first server', () => {
    expect(view.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://static/resource/{id}', 'two://{path}']);
    expect(view.template('test://static/resource/{id}')).toEqual({
      server: 'one',
      uriTemplate: 'test://static/resource/{id}',
    });
    expect(view.template('two://{path}')).toEqual({ server: 'two', uriTemplate: 'two://{path}' });
    expect(view.template('nope://{x}')).toBeNull();
  });
});

describe('buildView fingerprint', () => {
  const base = () => [
    upstream('s', {
      tools: [tool('echo'), tool('add')],
      resources: [{ uri: 'x://1', name: 'one' }],
      prompts: [{ name: 'p' }],
    }),
  ];
  const fp = (servers: ViewServer[]) => buildView({ naming: 'prefixed', servers }).fingerprint;

  it('is stable for the same listing, even with keys in another order', () => {
    const reordered = upstream('s', {
      tools: [{ inputSchema: { type: 'object' }, name: 'echo' }, tool('add')],
      resources: [{ name: 'one', uri: 'x://1' }],
      prompts: [{ name: 'p' }],
    });
    expect(fp(base())).toEqual(fp(base()));
    expect(fp([reordered])).toEqual(fp(base()));
  });

  it('changes only for the kind whose listing changed', () => {
    const before = fp(base());
    const fewerTools = fp([upstream('s', { ...base()[0]?.catalog, tools: [tool('echo')] })]);
    expect(fewerTools.tools).not.toBe(before.tools);
    expect(fewerTools.resources).toBe(before.resources);
    expect(fewerTools.prompts).toBe(before.prompts);

    const newTemplate = fp([
      upstream('s', { ...base()[0]?.catalog, resourceTemplates: [{ uriTemplate: 'x://{id}', name: 't' }] }),
    ]);
    expect(newTemplate.resources).not.toBe(before.resources);
    expect(newTemplate.tools).toBe(before.tools);
  });

  it('does not change when a filtered tool changes upstream', () => {
    const denied = (description: string) =>
      fp([upstream('s', { tools: [tool('echo'), tool('rm', { description })] }, { config: { deniedTools: ['rm'] } })]);
    expect(denied('one')).toEqual(denied('two'));
  });

  it('changes when a listed tool description changes', () => {
    const described = (description: string) => fp([upstream('s', { tools: [tool('echo', { description })] })]).tools;
    expect(described('one')).not.toBe(described('two'));
  });
});
