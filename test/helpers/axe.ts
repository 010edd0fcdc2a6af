import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const AXE = fileURLToPath(import.meta.resolve('axe-core/axe.min.js'));

/**
 * axe-core's violations inside the elements `selector` matches (open shadow roots included), run in the page itself,
 * as `rule: targets` lines. Injects axe-core into the page once.
 */
export async function axeViolations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (selector) => {
    type Result = { violations: { id: string; nodes: { target: unknown }[] }[] };
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<Result> } }).axe;
    const { violations } = await axe.run({ include: [[selector]] });
    return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, selector);
}
