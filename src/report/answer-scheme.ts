import type { SchemeName } from '../labels';
import type { RunRecords, RunVerdict } from '../runs/run-records';
import { runDatasetScheme } from './dataset-scheme';
import { groupKeyId } from './group-key';
import type { GroupKey } from './report-types';

/** The Tool-MAD label set that asks for AVeriTeC's four labels (the spec's Option B). */
const FOUR_LABEL_SET = 'averitec';

/**
 * Tool-MAD verdicts on a four-way dataset asked with three labels: the spec's Option A for AVeriTeC
 * (tool-mad.md §10 #11), whose Not Enough Evidence and Conflicting Evidence/Cherrypicking gold both
 * score as NOT ENOUGH INFO. Verdicts made before the trace named its label set are not.
 */
export function isThreeLabelAnswer(verdict: Pick<RunVerdict, 'method' | 'trace'>): boolean {
  const labelSet = verdict.trace?.labelSet;
  return verdict.method === 'tool-mad' && labelSet !== undefined && labelSet !== FOUR_LABEL_SET;
}

/**
 * The scheme each dataset × method × model group is scored on: the dataset's protocol scheme, except
 * a four-way dataset whose verdicts all answered in three labels (Option A), scored three-way.
 */
export function groupSchemes(records: Pick<RunRecords, 'manifest' | 'verdicts'>, datasetOf: (verdict: RunVerdict) => string): (key: GroupKey) => SchemeName {
  const answers = new Map<string, boolean[]>();
  for (const verdict of records.verdicts) {
    const id = groupKeyId({ dataset: datasetOf(verdict), method: verdict.method, model: verdict.model });
    answers.set(id, [...(answers.get(id) ?? []), isThreeLabelAnswer(verdict)]);
  }
  return (key) => {
    const scheme = runDatasetScheme(records.manifest, key.dataset);
    const threeLabels = answers.get(groupKeyId({ dataset: key.dataset, method: key.method, model: key.model }));
    return scheme === 'four-way' && threeLabels !== undefined && threeLabels.every(Boolean) ? 'three-way' : scheme;
  };
}
