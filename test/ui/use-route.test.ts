/**
 * The audit's filters and page kept in the URL's fragment (issue 19, audit): parsed from and
 * written to `#/audit?…`, so a filtered view is a link; the other routes as they were.
 */
import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from '../../src/ui/use-route.js';

describe('the audit route', () => {
  it('reads the filters and the page from the fragment, and writes them back', () => {
    const route = parseRoute('#/audit?server=fs%20one&event=tool_call&before=1764203116856.abc-1');
    expect(route).toEqual({
      page: 'audit',
      query: { server: 'fs one', event: 'tool_call', before: '1764203116856.abc-1' },
    });
    expect(parseRoute(hrefOf(route))).toEqual(route);
    expect(hrefOf({ page: 'audit', query: { clientName: 'boternity-ui', client: 'admin' } })).toBe(
      '#/audit?clientName=boternity-ui&client=admin',
    );
  });

  it('leaves out empty values and repeats; no filter is the plain page', () => {
    expect(parseRoute('#/audit?server=&tool=a&tool=b')).toEqual({ page: 'audit', query: { tool: 'a' } });
    expect(hrefOf({ page: 'audit', query: { server: '' } })).toBe('#/audit');
    expect(hrefOf({ page: 'audit' })).toBe('#/audit');
    expect(parseRoute('#/audit')).toEqual({ page: 'audit' });
  });

  it('keeps the other routes as they were', () => {
    expect(parseRoute('#/servers/a%3Fb')).toEqual({ page: 'server', name: 'a?b' });
    expect(parseRoute('#/bots/scout')).toEqual({ page: 'bot', slug: 'scout' });
    expect(parseRoute('#/tokens')).toEqual({ page: 'tokens' });
    expect(parseRoute('#/nowhere?x=1')).toEqual({ page: 'servers' });
    expect(hrefOf({ page: 'server', name: 'a?b' })).toBe('#/servers/a%3Fb');
  });
});
