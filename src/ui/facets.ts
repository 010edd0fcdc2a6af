import { h } from './dom.js';
import type { FacetCount } from './types.js';

/**
 * Fills a group of filter chips: a toggle button per value, pressed when chosen, with the number of matches it would
 * leave beside its name when the endpoint counted them (the `facets` attribute).
 */
export function fillChips(
  group: HTMLElement,
  values: string[],
  { chosen, name = (v) => v, count, choose }: { chosen: (value: string) => boolean; name?: (value: string) => string; count: (value: string) => number | undefined; choose: (value: string) => void },
): void {
  // A chip chosen from the keyboard keeps the focus through the new chips, or the box would close under the reader.
  const focused = (group.getRootNode() as ShadowRoot).activeElement;
  const kept = focused?.parentNode === group ? focused.getAttribute('data-value') : null;
  const chips = values.map((value) => {
    const n = count(value);
    const chip = h('button', { part: 'chip', class: 'chip', type: 'button', 'data-value': value, 'aria-pressed': String(chosen(value)) }, name(value));
    if (n !== undefined) chip.append(h('span', { part: 'count', class: 'count' }, ` ${n}`));
    chip.addEventListener('click', () => choose(value));
    return chip;
  });
  group.hidden = !values.length;
  group.replaceChildren(...chips);
  chips.find((chip) => chip.getAttribute('data-value') === kept)?.focus();
}

/** The most tags the endpoint takes in one request (its `MAX_TAGS`): an eleventh chosen chip answered 400. */
export const MAX_CHOSEN_TAGS = 10;

/**
 * The values a facet offers: the chosen ones first, even when the answer did not count them (so they can be removed);
 * once {@link MAX_CHOSEN_TAGS} are chosen, only those (one type at most is ever chosen).
 */
export function offered(counts: FacetCount[] | undefined, chosen: string[]): string[] {
  return chosen.length < MAX_CHOSEN_TAGS ? [...new Set([...chosen, ...(counts ?? []).map((c) => c.value)])] : chosen;
}

/** A value's count in a facet's counts: 0 when the facet was counted without it, undefined when it was not counted. */
export function countOf(counts: FacetCount[] | undefined, value: string): number | undefined {
  return counts && (counts.find((c) => c.value === value)?.count ?? 0);
}
