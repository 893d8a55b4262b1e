/** Activities of the raw engine ceiling (raw-workflows.ts): an LLM call that only waits, and an empty step. */
export function createRawActivities() {
  return {
    async rawLlm(latencyMs: number): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
    },
    async rawStep(): Promise<void> {
      // an empty step: the engine's cost of an activity, nothing else
    },
  };
}

export type RawActivities = ReturnType<typeof createRawActivities>;
