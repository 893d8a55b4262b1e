import type { ToeAction } from '../toe-policy';

export const TOE_STANCES = ['support', 'refute', 'neutral'] as const;
export type ToeStance = (typeof TOE_STANCES)[number];

/**
 * One analysed document (toe.md §4.1–4.2): what the analysis LLM said about it, plus the action
 * (source) that retrieved it. One object per document.
 */
export interface EvidenceItem {
  /** The document's id (URL or passage id), unique within a node. */
  id: string;
  action: Exclude<ToeAction, 'stop'>;
  stance: ToeStance;
  relevance: number;
  credibility: number;
  authoritative: boolean;
  primary: boolean;
}
