import { describe, expect, it } from 'vitest';
import { parseServerCounters, serverBusy } from '../../eval/bench/real-model/server-metrics';

const metrics = (promptSeconds: number, predictedSeconds: number, predictedTokens: number) => `# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 52337
llamacpp:prompt_tokens_cached_total 79011
llamacpp:prompt_seconds_total ${promptSeconds}
llamacpp:tokens_predicted_total ${predictedTokens}
llamacpp:tokens_predicted_seconds_total ${predictedSeconds}
llamacpp:requests_processing 1
`;

describe("llama.cpp's /metrics over a sweep", () => {
  it('reads the counters from the Prometheus text, or nothing when one is missing', () => {
    expect(parseServerCounters(metrics(546.205, 1879.82, 46416))).toEqual({
      promptSeconds: 546.205,
      predictedSeconds: 1879.82,
      promptTokens: 52337,
      cachedPromptTokens: 79011,
      predictedTokens: 46416,
    });
    expect(parseServerCounters('llamacpp:prompt_tokens_total 1\n')).toBeUndefined();
    expect(parseServerCounters('<html>not metrics</html>')).toBeUndefined();
  });

  it('says how much of the sweep the server spent working', () => {
    const busy = serverBusy(parseServerCounters(metrics(100, 300, 1000))!, parseServerCounters(metrics(160, 720, 5000))!, 500);
    expect(busy).toMatchObject({ busySeconds: 480, predictedTokens: 4000, promptTokens: 0 });
    expect(busy.busyShare).toBeCloseTo(0.96);
  });
});
