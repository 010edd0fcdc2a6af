/** The last `lines` lines of a process's output, for a failure message that shows where it stopped. */
export function lastLines(output: string, lines = 40): string {
  const all = output.trimEnd().split('\n');
  return (all.length > lines ? [`… (${all.length - lines} earlier lines)`, ...all.slice(-lines)] : all).join('\n');
}
