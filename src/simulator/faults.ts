import { ProviderRateLimit } from './provider-rate-limit';

export const FAULT_KINDS = ['429', '500', 'timeout', 'malformed'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Injects `kind` with a probability, or on every Nth model request (1-based), or both; or, with
 * `match`, on every request whose body contains that text (deterministic under concurrency: e.g.
 * one task's schema name or one claim), at most `times` times; or, with `aboveRps`, on every request
 * over that rate (a provider's rate limit: ProviderRateLimit).
 */
export interface FaultRule {
  kind: FaultKind;
  probability?: number;
  everyNth?: number;
  match?: string;
  times?: number;
  aboveRps?: number;
}

/**
 * Parses a CLI fault spec: `429:0.2` (probability) or `500:every=3` (every third request) or
 * `429:above=2` (every request over 2 per second, as a provider's rate limit answers);
 * `malformed:match=<text>` (every request whose body contains the text) or `malformed:first-match=<text>`
 * (only the first such request); `timeout` hangs the request, `malformed` answers with broken JSON content.
 */
export function parseFaultSpec(spec: string): FaultRule {
  const matching = /^([^:]+):(match|first-match)=(.+)$/s.exec(spec);
  if (matching && FAULT_KINDS.includes(matching[1] as FaultKind)) {
    return { kind: matching[1] as FaultKind, match: matching[3]!, ...(matching[2] === 'first-match' ? { times: 1 } : {}) };
  }
  const [kind, rate] = spec.split(':', 2);
  if (!FAULT_KINDS.includes(kind as FaultKind) || !rate) {
    throw new Error(`invalid fault '${spec}': expected <${FAULT_KINDS.join('|')}>:<probability> or <kind>:every=<n>`);
  }
  const above = /^above=(.+)$/.exec(rate);
  if (above) {
    const aboveRps = Number(above[1]);
    if (aboveRps > 0 && Number.isFinite(aboveRps)) return { kind: kind as FaultKind, aboveRps };
    throw new Error(`invalid fault '${spec}': above=<requests per second> must be a positive number`);
  }
  const every = /^every=(\d+)$/.exec(rate);
  if (every && Number(every[1]) >= 1) return { kind: kind as FaultKind, everyNth: Number(every[1]) };
  const probability = Number(rate);
  if (!every && probability >= 0 && probability <= 1) return { kind: kind as FaultKind, probability };
  throw new Error(`invalid fault '${spec}': probability must be within 0..1 and every=<n> at least 1`);
}

/** Decides faults deterministically: a seeded generator, so a run with the same requests fails the same way. */
export class FaultInjector {
  private requestNumber = 0;
  private state: number;
  /** Injections so far per rule (for `times`). */
  private injected = new Map<FaultRule, number>();
  /** The rate limit of each `aboveRps` rule. */
  private limits = new Map<FaultRule, ProviderRateLimit>();

  constructor(
    private readonly rules: readonly FaultRule[],
    private readonly seed = 7,
  ) {
    this.state = seed;
  }

  /** Call once per model request (with its body, for `match` rules, and its arrival, for `aboveRps`); returns the fault to inject, if any. */
  next(requestText = '', nowMs = Date.now()): FaultKind | undefined {
    this.requestNumber++;
    for (const rule of this.rules) {
      if (rule.aboveRps !== undefined) {
        if (this.limitOf(rule).refuses(nowMs)) return rule.kind;
        continue;
      }
      if (rule.match !== undefined) {
        if (this.matches(rule, requestText)) return rule.kind;
        continue;
      }
      if (rule.everyNth && this.requestNumber % rule.everyNth === 0) return rule.kind;
      if (rule.probability && this.random() < rule.probability) return rule.kind;
    }
    return undefined;
  }

  reset(): void {
    this.requestNumber = 0;
    this.state = this.seed;
    this.injected.clear();
    this.limits.clear();
  }

  private limitOf(rule: FaultRule): ProviderRateLimit {
    let limit = this.limits.get(rule);
    if (!limit) this.limits.set(rule, (limit = new ProviderRateLimit(rule.aboveRps!)));
    return limit;
  }

  private matches(rule: FaultRule, requestText: string): boolean {
    if (!requestText.includes(rule.match!)) return false;
    const count = this.injected.get(rule) ?? 0;
    if (rule.times !== undefined && count >= rule.times) return false;
    this.injected.set(rule, count + 1);
    return true;
  }

  /** mulberry32 */
  private random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
