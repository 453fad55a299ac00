// What the person is told when a turn fails: never internals.

export function describeFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "AbortError" || name === "TimeoutError") return "The assistant took too long to answer and was stopped.";
  if (/APICallError|RetryError/.test(name)) return "The language model service did not answer; try again in a moment.";
  return "The assistant failed to answer; try again.";
}
