/**
 * Frontmatter dates → `YYYY-MM-DD`. The day the author wrote is the day stored, whatever the indexing machine's time
 * zone: YAML timestamps arrive as UTC instants, ISO strings are read literally, other strings (no zone given) are read
 * as the author's local calendar date.
 */

/** `YYYY-MM-DD` for a frontmatter value, or undefined when it is not a real date. */
export function toIsoDay(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
  if (iso) return validDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  // Years alone ("2024") and other bare numbers are not dates a reader would agree on.
  if (/^\d+$/.test(text)) return undefined;
  const parsed = new Date(text);
  if (Number.isNaN(parsed.getTime())) return undefined;
  return validDay(parsed.getFullYear(), parsed.getMonth() + 1, parsed.getDate());
}

/** The day, unless it does not exist (2024-02-30 is an error, not March 1st). */
function validDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
