import { describe, expect, it } from 'vitest';
import { afterQuietInterval, afterRateLimited, defaultLlmRateSettings, initialLlmRate, isRecovered } from '../../src/shared/llm-rate';

const settings = defaultLlmRateSettings(10, 1_000);

describe('AIMD of the LLM queue rate', () => {
  it('halves the rate on 429s, at most once per cooldown, and never below the floor', () => {
    let state = initialLlmRate(settings, 0);
    state = afterRateLimited(state, settings, { count: 3 }, 100);
    expect(state).toMatchObject({ rate: 5, rateLimitedCount: 3, decreases: 1 });
    // In-flight requests answer 429 right after a cut: counted, not cut again.
    state = afterRateLimited(state, settings, { count: 2 }, 600);
    expect(state).toMatchObject({ rate: 5, rateLimitedCount: 5, decreases: 1 });
    state = afterRateLimited(state, settings, { count: 1 }, 1_200);
    expect(state).toMatchObject({ rate: 2.5, decreases: 2 });
    for (let at = 3_000; at < 30_000; at += 1_000) state = afterRateLimited(state, settings, { count: 1 }, at);
    expect(state.rate).toBe(settings.floor);
  });

  it('waits out a longer Retry-After before cutting again', () => {
    let state = afterRateLimited(initialLlmRate(settings, 0), settings, { count: 1, retryAfterMs: 5_000 }, 0);
    state = afterRateLimited(state, settings, { count: 1 }, 3_000);
    expect(state.decreases).toBe(1);
    state = afterRateLimited(state, settings, { count: 1 }, 5_000);
    expect(state.decreases).toBe(2);
  });

  it('adds a step per quiet interval up to the ceiling', () => {
    let state = afterRateLimited(initialLlmRate(settings, 0), settings, { count: 1 }, 0);
    const rates: number[] = [];
    while (!isRecovered(state, settings)) {
      state = afterQuietInterval(state, settings);
      rates.push(state.rate);
    }
    expect(rates).toEqual([6, 7, 8, 9, 10]);
  });
});
