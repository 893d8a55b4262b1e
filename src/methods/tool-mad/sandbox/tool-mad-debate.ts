import type { InvalidAnswerFallback } from '../../../shared/invalid-answer';
/**
 * Sandbox-safe shapes of a Tool-MAD debate: one debater's turn, a round (the child workflow's input
 * and result) and the trace stored with the verdict. Types only.
 */
import type { VerdictLabel } from '../../../shared/constants';
import type { RetrievalMode } from '../../../shared/retrieval';
import type { BatchLaneSettings } from '../../../shared/batch';
import type { ResolvedLabelSetName } from './tool-mad-labels';
import type { ToolMadSettings, ToolMadTool } from './tool-mad-settings';

/** One retrieved document: a wiki passage (RAG) or a web result (id = URL). */
export interface ToolMadDocument {
  id: string;
  title: string;
  text: string;
  source: 'rag' | 'search';
  score?: number;
}

export interface Debater {
  /** `rag`, `search`, `vanilla`, or `rag-2` … for a repeated tool. */
  id: string;
  tool: ToolMadTool;
}

/** The stability score of one answer (spec §7); null = undefined (no evidence, no statements). */
export interface StabilityScores {
  faithfulness: number | null;
  answerRelevance: number | null;
  statements: number;
  supportedStatements: number;
  questions: string[];
  cosines: number[];
  /** Any generated question flagged the answer as evasive (logged; penalised only if configured). */
  noncommittal: boolean;
}

export interface DebaterTurn {
  debater: string;
  tool: ToolMadTool;
  round: number;
  /** null for a vanilla debater (no retrieval). */
  query: string | null;
  /** False when the query step's output was unusable and the previous query (or the claim) was kept. */
  queryParsedOk: boolean;
  documents: ToolMadDocument[];
  /** Why retrieval returned nothing usable (the web tool's error observation), if it failed. */
  toolError?: string;
  answer: string;
  /** The label as the answer wrote it (from the prompt's label set), or null if unparseable. */
  label: string | null;
  verdict: VerdictLabel | null;
  scores: StabilityScores;
  /** Steps of this turn that got no valid answer even when re-asked, and what stood in for them. */
  invalidAnswers?: InvalidAnswerFallback[];
}

/** What the other debaters said in the previous round and what this debater searched for. */
export interface PreviousTurn {
  debater: string;
  query: string | null;
  answer: string;
}

export interface ToolMadRoundInput {
  claim: string;
  model: string;
  round: number;
  settings: ToolMadSettings;
  labelSet: ResolvedLabelSetName;
  rag: { index: string; mode?: RetrievalMode };
  debaters: Debater[];
  /** Round r-1's turns; absent in round 1. */
  previous?: PreviousTurn[];
  /** The sweep's batch lane, if it has one: the round's calls of a batch model go through batches. */
  batch?: BatchLaneSettings;
}

/** A round as the parent records it: the turns and the stopping rule's two checks. */
export interface DebateRound {
  round: number;
  workflowId: string;
  turns: DebaterTurn[];
  labelsAgree: boolean;
  gatesPassed: boolean;
}

/** Per debater means over the rounds (nulls excluded; null when every round was null). */
export interface AverageScores {
  debater: string;
  faithfulness: number | null;
  answerRelevance: number | null;
}

/** The running round as the child's `roundState` query and the parent's trace show it. */
export interface RoundProgress {
  round: number;
  workflowId: string;
  steps: Record<string, string>;
}
