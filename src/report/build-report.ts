import type { RunRecords } from '../runs/run-records';
import type { BootstrapOptions } from '../metrics';
import { buildClaimRows, verdictDatasetResolver } from './claim-rows';
import { groupSchemes } from './answer-scheme';
import { latestVerdicts } from './latest-verdicts';
import type { GoldLabels } from './gold-labels';
import { runDatasetScheme } from './dataset-scheme';
import { groupLabel } from './group-key';
import { buildGroupReport } from './group-report';
import { claimKeyId, groupBy } from './group-key';
import { metricConventions } from './metric-conventions';
import { documentGroups } from './document-groups';
import { pairedComparisons } from './paired-comparisons';
import { SIMULATOR_BANNER, type GroupKey, type RunReport } from './report-types';
import type { SchemeName } from '../labels';

export interface BuildReportOptions {
  generatedAt?: string;
  bootstrap?: BootstrapOptions;
}

/** Verifications the run's stored claims call for (claim × method × model) that no row records. */
function unrecordedVerifications(records: RunRecords, recorded: ReadonlySet<string>): number {
  const { methods, models, repeats = 1 } = records.manifest.config;
  let missing = 0;
  for (const claim of records.claims) {
    for (const method of methods) {
      for (const model of models) {
        for (let repeat = 0; repeat < repeats; repeat++) if (!recorded.has(claimKeyId({ dataset: claim.dataset, method, model, claimId: claim.claimId, repeat }))) missing += 1;
      }
    }
  }
  return missing;
}

/**
 * Which of the Tool-MAD spec's AVeriTeC options each Tool-MAD group on a four-way dataset used (§10 #11:
 * "Report which option was used"), once per group without a stratum.
 */
function labelOptionNotes(keys: readonly GroupKey[], schemeOf: (key: GroupKey) => SchemeName, manifest: RunRecords['manifest']): string[] {
  return keys
    .filter((key) => key.method === 'tool-mad' && !key.stratum && runDatasetScheme(manifest, key.dataset) === 'four-way')
    .map((key) =>
      schemeOf(key) === 'three-way'
        ? `${groupLabel(key)}: Option A (three labels; Not Enough Evidence and Conflicting Evidence/Cherrypicking gold scored as NOT ENOUGH INFO, three-way)`
        : `${groupLabel(key)}: Option B (four labels, scored four-way)`,
    );
}

/** The whole report of a run, from its stored records and the gold labels of its claims. Pure. */
export function buildReport(stored: RunRecords, gold: GoldLabels, options: BuildReportOptions = {}): RunReport {
  const { verdicts, superseded } = latestVerdicts(stored.verdicts);
  const records = { ...stored, verdicts };
  const claims = buildClaimRows(records, gold);
  const simulator = records.manifest.llmProvider === 'simulator';
  const missingGold = claims.filter((row) => row.goldRaw === null).length;
  const warnings = [...records.warnings];
  if (records.documents) {
    warnings.push(`scored per document: each item is a checked text labelled REFUTED if any of its claims is refuted, else SUPPORTED if one is supported, else NEI; its ${records.documents.claimVerdicts} claim verification(s) are in the run but not scored against the items' gold`);
  }
  if (missingGold > 0) warnings.push(`${missingGold} verification(s) have no gold label and are not scored`);
  if (superseded > 0) {
    warnings.push(`${superseded} earlier verdict(s) of claims verified again (under another code or settings identity) are left out; each claim counts once, with its latest verdict`);
  }
  const unrecorded = unrecordedVerifications(records, new Set(claims.map(claimKeyId)));
  if (unrecorded > 0) {
    warnings.push(`${unrecorded} verification(s) of the run's claims have neither a verdict nor a failure record (still running, or their records were lost) and are in no metric`);
  }
  const schemeOf = groupSchemes(records, verdictDatasetResolver(records));
  const groupKeys = groupBy(claims).map(({ key }) => key);
  warnings.push(...labelOptionNotes(groupKeys, schemeOf, records.manifest));
  const protocol = records.manifest.config.protocol ?? 'verity';
  return {
    schemaVersion: 1,
    runId: records.manifest.runId,
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    simulator,
    banner: simulator ? SIMULATOR_BANNER : null,
    manifest: records.manifest,
    protocol,
    conventions: metricConventions(protocol),
    groups: groupBy(claims).map(({ key, items }) => buildGroupReport(key, items, options.bootstrap, schemeOf(key), protocol)),
    claims,
    comparisons: pairedComparisons({ runId: records.manifest.runId, manifest: records.manifest, claims }, { bootstrap: options.bootstrap }),
    ...(records.documents ? { documents: documentGroups(records) } : {}),
    warnings,
  };
}
