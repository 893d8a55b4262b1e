/**
 * How well a document check's claim extraction recovers a text's gold atomic claims: each gold
 * claim is matched to the extracted (self-contained) claim with the highest token F1, and counts
 * as recovered at or above a threshold — the lexical matching FActScore-style evaluations use when
 * no human alignment exists. Pure.
 */

/** A gold claim counts as recovered when an extracted claim reaches this token F1 with it. */
export const RECOVERED_F1 = 0.6;

export function claimTokens(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Token-level F1 of two claims (bag of words, as SQuAD's F1). */
export function tokenF1(a: string, b: string): number {
  const left = claimTokens(a);
  const right = claimTokens(b);
  if (left.length === 0 || right.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of right) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of left) {
    const available = counts.get(token) ?? 0;
    if (available > 0) {
      common += 1;
      counts.set(token, available - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / left.length;
  const recall = common / right.length;
  return (2 * precision * recall) / (precision + recall);
}

export interface ExtractionMatch {
  gold: string;
  /** The best-matching extracted claim, if any was extracted. */
  extracted?: string;
  /** Its position among the document's claims. */
  position?: number;
  f1: number;
  recovered: boolean;
}

export interface ExtractionScore {
  gold: number;
  extracted: number;
  recovered: number;
  /** Recovered gold claims / gold claims. */
  recall: number;
  /** Extracted claims that match some gold claim / extracted claims (null when none was extracted). */
  precision: number | null;
  meanBestF1: number;
  matches: ExtractionMatch[];
}

/** Scores one document's extracted claims against its gold claims. */
export function scoreExtraction(gold: readonly string[], extracted: readonly string[], threshold = RECOVERED_F1): ExtractionScore {
  const matches = gold.map((claim): ExtractionMatch => {
    let best: ExtractionMatch = { gold: claim, f1: 0, recovered: false };
    extracted.forEach((candidate, position) => {
      const f1 = tokenF1(candidate, claim);
      if (f1 > best.f1) best = { gold: claim, extracted: candidate, position, f1, recovered: f1 >= threshold };
    });
    return best;
  });
  const matchingExtracted = extracted.filter((candidate) => gold.some((claim) => tokenF1(candidate, claim) >= threshold)).length;
  const recovered = matches.filter((match) => match.recovered).length;
  return {
    gold: gold.length,
    extracted: extracted.length,
    recovered,
    recall: gold.length === 0 ? 0 : recovered / gold.length,
    precision: extracted.length === 0 ? null : matchingExtracted / extracted.length,
    meanBestF1: gold.length === 0 ? 0 : matches.reduce((sum, match) => sum + match.f1, 0) / gold.length,
    matches,
  };
}
