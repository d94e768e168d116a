/**
 * axe-core (the npm package, its `axe.min.js`) injected into a page of a real browser and
 * run at WCAG 2.2 AA: the rules tagged `wcag2a`, `wcag2aa`, `wcag21a`, `wcag21aa` and
 * `wcag22aa`. The page must be in a context opened with `bypassCSP` (the UI's CSP allows
 * only its own scripts, and the injected one is inline).
 * @module
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The rule sets run. */
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What one run found: each violation in one line per node, and what was looked at. */
export type AxeSummary = {
  violations: string[];
  /** Rules that found nothing wrong, and the elements all the rules looked at. */
  rulesPassed: number;
  nodesChecked: number;
  /** Rules axe could not decide by itself (not violations: reported, for a reviewer). */
  incomplete: string[];
};

/** Inject axe into `page` (once per document) and run it over the whole document. */
export async function runAxe(page: Page): Promise<AxeSummary> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.addScriptTag({ path: AXE_PATH });
  return (await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_22_AA)} } });
    const count = (list) => list.reduce((n, rule) => n + rule.nodes.length, 0);
    return {
      violations: result.violations.flatMap((rule) =>
        rule.nodes.map((node) => rule.id + ' (' + rule.impact + ') ' + node.target.join(' ') + ': ' + (node.failureSummary ?? '').replace(/\\s+/g, ' '))),
      rulesPassed: result.passes.length,
      nodesChecked: count(result.passes) + count(result.violations) + count(result.incomplete),
      incomplete: result.incomplete.map((rule) => rule.id + ' ×' + rule.nodes.length),
    };
  })()`)) as AxeSummary;
}
