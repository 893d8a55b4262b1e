export const FAULT_KINDS = ['429', '500', 'timeout', 'malformed'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Injects `kind` with a probability, or on every Nth model request (1-based), or both. */
export interface FaultRule {
  kind: FaultKind;
  probability?: number;
  everyNth?: number;
}

/**
 * Parses a CLI fault spec: `429:0.2` (probability) or `500:every=3` (every third request);
 * `timeout` hangs the request, `malformed` answers with broken JSON content.
 */
export function parseFaultSpec(spec: string): FaultRule {
  const [kind, rate] = spec.split(':', 2);
  if (!FAULT_KINDS.includes(kind as FaultKind) || !rate) {
    throw new Error(`invalid fault '${spec}': expected <${FAULT_KINDS.join('|')}>:<probability> or <kind>:every=<n>`);
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

  constructor(
    private readonly rules: readonly FaultRule[],
    private readonly seed = 7,
  ) {
    this.state = seed;
  }

  /** Call once per model request; returns the fault to inject, if any. */
  next(): FaultKind | undefined {
    this.requestNumber++;
    for (const rule of this.rules) {
      if (rule.everyNth && this.requestNumber % rule.everyNth === 0) return rule.kind;
      if (rule.probability && this.random() < rule.probability) return rule.kind;
    }
    return undefined;
  }

  reset(): void {
    this.requestNumber = 0;
    this.state = this.seed;
  }

  /** mulberry32 */
  private random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
