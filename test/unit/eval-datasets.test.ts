import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetFormatError, datasetFileHash, detectDatasetFormat, loadDataset, type LoadDatasetOptions } from '../../src/datasets';

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-eval-datasets-'));
afterAll(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

function writeFile(name: string, content: string): string {
  const file = path.join(tmpDir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const jsonl = (records: unknown[]): string => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

// Small samples in the shape of each public release, written for these tests.
const feverLines = [
  { id: 75397, verifiable: 'VERIFIABLE', label: 'SUPPORTS', claim: 'Nikolaj Coster-Waldau worked with the Fox Broadcasting Company.', evidence: [[[92206, 104971, 'Nikolaj_Coster-Waldau', 7], [92206, 104971, 'Fox_Broadcasting_Company', 0]]] },
  { id: 150448, verifiable: 'VERIFIABLE', label: 'REFUTES', claim: 'Soul Food is a 1998 film.', evidence: [[[1, 2, 'Soul_Food_-LRB-film-RRB-', 0]], [[3, 4, 'Soul_Food_-LRB-film-RRB-', 1]]] },
  { id: 91198, verifiable: 'NOT VERIFIABLE', label: 'NOT ENOUGH INFO', claim: 'Colin Kaepernick became a starting quarterback.', evidence: [[[108548, null, null, null]]] },
];

const hoverArray = [
  { uid: 'a1', claim: 'The director of Jaws was born in Ohio.', supporting_facts: [['Jaws (film)', 0], ['Steven Spielberg', 1]], label: 'SUPPORTED', num_hops: 2, hpqa_id: 'x' },
  { uid: 'a2', claim: 'Skagen Painter Peder Severin Krøyer favored naturalism.', supporting_facts: [['Peder Severin Krøyer', 0]], label: 'NOT_SUPPORTED', num_hops: 2, hpqa_id: 'y' },
];

const scifactClaims = [
  { id: 1, claim: '0-dimensional biomaterials show inductive properties.', evidence: {}, cited_doc_ids: [31715818] },
  { id: 3, claim: '1,000 genomes project enables mapping of genetic sequence variation.', evidence: { '14717500': [{ sentences: [2, 5], label: 'SUPPORT' }] }, cited_doc_ids: [14717500] },
  { id: 8, claim: 'Antibiotics cure viral infections.', evidence: { '4983': [{ sentences: [1], label: 'CONTRADICT' }] }, cited_doc_ids: [4983] },
];
const scifactCorpus = [
  { doc_id: 14717500, title: 'A map of human genome variation', abstract: ['...'], structured: false },
  { doc_id: 4983, title: 'Microstructural development of human newborn cerebral white matter', abstract: ['...'], structured: false },
];

const feverousLines = [
  { id: '', label: '', claim: '', evidence: [] },
  { id: 24435, label: 'SUPPORTS', claim: 'Michael Folivi scored one goal for Ghana.', evidence: [{ content: ['Michael Folivi_sentence_0', 'Michael Folivi_cell_1_2_1', 'Ghana national under-20 football team_header_cell_0_0_1'], context: {} }], challenge: 'Numerical Reasoning' },
  { id: 14802, label: 'NOT ENOUGH INFO', claim: 'Aramais Yepiskoposyan played for FC Ararat.', evidence: [{ content: ['Aramais Yepiskoposyan_sentence_1'], context: {} }], challenge: 'Other' },
];

const averitecArray = [
  { claim: 'Hunter Biden had no experience in Ukraine.', label: 'Refuted', justification: '…', claim_date: '25-8-2020', speaker: 'Pam Bondi', questions: [{ question: 'Did he?', answers: [{ answer: 'Yes', answer_type: 'Boolean' }] }] },
  { claim: 'Biden said he would ban fracking.', label: 'Conflicting Evidence/Cherrypicking', questions: [] },
  { claim: 'A claim with a label no scheme knows.', label: 'Pants on Fire', questions: [] },
];

const liarRows = [
  ['2635.json', 'false', 'Says the Annies List political group supports third-trimester abortions on demand.', 'abortion', 'dwayne-bohac', 'State representative', 'Texas', 'republican', '0', '1', '0', '0', '0', 'a mailer'],
  ['10540.json', 'half-true', 'When did the decline of coal start?', 'energy,history', 'scott-surovell', 'State delegate', 'Virginia', 'democrat', '0', '0', '1', '1', '0', 'a floor speech.'],
  ['324.json', 'pants-fire', 'Hillary Clinton agrees with John McCain.', 'foreign-policy', 'barack-obama', 'President', 'Illinois', 'democrat', '70', '71', '160', '163', '9', 'Denver'],
];

async function load(file: string, options: LoadDatasetOptions = {}) {
  return loadDataset(file, options);
}

describe('loaders for the public formats', () => {
  it('FEVER JSONL: labels, normalised gold titles, evidence sets', async () => {
    const { claims, stats } = await load(writeFile('fever/paper_dev.jsonl', jsonl(feverLines)));
    expect(stats.format).toBe('fever');
    expect(claims.map((c) => [c.id, c.labelNorm])).toEqual([['fever-75397', 'SUPPORTED'], ['fever-150448', 'REFUTED'], ['fever-91198', 'NEI']]);
    expect(claims[1]?.goldTitles).toEqual(['Soul Food (film)']);
    expect(claims[0]?.meta.evidenceSets).toEqual([[['Nikolaj Coster-Waldau', 7], ['Fox Broadcasting Company', 0]]]);
    expect(claims[2]?.goldTitles).toEqual([]);
  });

  it('HoVer JSON array', async () => {
    const { claims, stats } = await load(writeFile('hover/hover_dev_release_v1.1.json', JSON.stringify(hoverArray)));
    expect(stats.format).toBe('hover');
    expect(claims.map((c) => c.labelNorm)).toEqual(['SUPPORTED', 'REFUTED']);
    expect(claims[0]).toMatchObject({ id: 'hover-a1', label: 'SUPPORTED', goldTitles: ['Jaws (film)', 'Steven Spielberg'], meta: { numHops: 2 } });
  });

  it('SciFact claims with titles from a sibling corpus.jsonl', async () => {
    writeFile('scifact/corpus.jsonl', jsonl(scifactCorpus));
    const { claims, stats } = await load(writeFile('scifact/claims_dev.jsonl', jsonl(scifactClaims)));
    expect(stats.format).toBe('scifact');
    expect(claims.map((c) => [c.label, c.labelNorm])).toEqual([['NEI', 'NEI'], ['SUPPORT', 'SUPPORTED'], ['CONTRADICT', 'REFUTED']]);
    expect(claims[1]?.goldTitles).toEqual(['A map of human genome variation']);
    expect(claims[1]?.meta.evidenceDocIds).toEqual(['14717500']);
  });

  it('SciFact: conflicting evidence labels make a malformed record', async () => {
    const mixed = { id: 9, claim: 'Mixed.', evidence: { '1': [{ sentences: [0], label: 'SUPPORT' }], '2': [{ sentences: [0], label: 'CONTRADICT' }] } };
    const { claims, stats } = await load(writeFile('scifact-mixed/claims.jsonl', jsonl([mixed])), { format: 'scifact' });
    expect(claims).toHaveLength(0);
    expect(stats.malformed[0]?.reason).toMatch(/conflicting/);
  });

  it('FEVEROUS JSONL: skips the empty header line, pages from element ids', async () => {
    const { claims, stats } = await load(writeFile('feverous/feverous_dev_challenges.jsonl', jsonl(feverousLines)));
    expect(stats).toMatchObject({ format: 'feverous', loaded: 2, ignored: 1, malformedCount: 0 });
    expect(claims[0]?.goldTitles).toEqual(['Michael Folivi', 'Ghana national under-20 football team']);
    expect(claims[1]?.labelNorm).toBe('NEI');
  });

  it('AVeriTeC JSON array: 4-way labels, unknown labels reported by record index', async () => {
    const { claims, stats } = await load(writeFile('averitec/dev.json', JSON.stringify(averitecArray, null, 2)));
    expect(stats.format).toBe('averitec');
    expect(claims.map((c) => [c.id, c.label, c.labelNorm])).toEqual([
      ['averitec-0', 'Refuted', 'REFUTED'],
      ['averitec-1', 'Conflicting Evidence/Cherrypicking', 'NEI'],
    ]);
    expect(stats.malformed).toEqual([{ position: { index: 2 }, reason: expect.stringMatching(/unknown label "Pants on Fire"/) }]);
  });

  it('FIRE-style {claim, label} JSONL: string and boolean labels, dataset named by folder', async () => {
    const strings = await load(writeFile('fire/factool_qa/data.jsonl', jsonl([{ claim: 'Paris is in France.', label: 'true' }, { claim: 'Jack Dorsey is the CEO of Twitter.', label: 'false' }])));
    expect(strings.stats.format).toBe('fire');
    expect(strings.claims.map((c) => [c.id, c.dataset, c.labelNorm])).toEqual([['factool_qa-0', 'factool_qa', 'SUPPORTED'], ['factool_qa-1', 'factool_qa', 'REFUTED']]);
    const booleans = await load(writeFile('fire/felm_wk/data.jsonl', jsonl([{ claim: 'A long response.', label: true }, { claim: 'Another.', label: false }])));
    expect(booleans.claims.map((c) => [c.dataset, c.label, c.labelNorm])).toEqual([['felm_wk', true, 'SUPPORTED'], ['felm_wk', false, 'REFUTED']]);
    const fcb = await load(writeFile('fire/factcheckbench/claim_factuality.jsonl', jsonl([{ claim: 'X.', label: 'not_enough_evidence', revised_claim: 'Y.' }])));
    expect(fcb.claims[0]).toMatchObject({ dataset: 'factcheck_bench', labelNorm: 'NEI', meta: { revised_claim: 'Y.' } });
  });

  it('LIAR TSV: 14 columns, binary by default, 3-way on request', async () => {
    const file = writeFile('liar/valid.tsv', `${liarRows.map((row) => row.join('\t')).join('\n')}\nbroken\trow\n`);
    const binary = await load(file);
    expect(binary.stats).toMatchObject({ format: 'liar', loaded: 3, malformedCount: 1 });
    expect(binary.stats.malformed[0]).toEqual({ position: { line: 4 }, reason: 'expected 14 tab-separated columns, found 2' });
    expect(binary.claims.map((c) => [c.id, c.labelNorm])).toEqual([['liar-2635', 'REFUTED'], ['liar-10540', 'SUPPORTED'], ['liar-324', 'REFUTED']]);
    expect(binary.claims[0]?.meta).toMatchObject({ speaker: 'dwayne-bohac', partyAffiliation: 'republican', context: 'a mailer' });
    const threeWay = await load(file, { dataset: 'liar_3way' });
    expect(threeWay.claims.map((c) => c.labelNorm)).toEqual(['REFUTED', 'NEI', 'REFUTED']);
  });

  it('PolitiFact (Kaggle JSON lines): detected by its fields, mapped as ToE maps it', async () => {
    const rows = [
      { verdict: 'mostly-false', statement_originator: 'A', statement: 'X rose.', statement_date: '1/1/2020' },
      { verdict: 'half-true', statement_originator: 'B', statement: 'Y fell.', statement_date: '1/2/2020' },
    ];
    const { claims, stats } = await load(writeFile('politifact/politifact_factcheck_data.json', jsonl(rows)));
    expect(stats.format).toBe('politifact');
    expect(claims.map((c) => [c.id, c.claim, c.labelNorm])).toEqual([['politifact-0', 'X rose.', 'REFUTED'], ['politifact-1', 'Y fell.', 'NEI']]);
    expect(claims[0]?.meta).toMatchObject({ statement_originator: 'A' });
  });

  it('Check-COVID as {claim, label} lines named check_covid', async () => {
    const { claims } = await load(writeFile('checkcovid/test.jsonl', jsonl([{ claim: 'Masks work.', label: 'NOTENOUGHINFO' }])), { format: 'fire', dataset: 'check_covid' });
    expect(claims[0]).toMatchObject({ dataset: 'check_covid', labelNorm: 'NEI' });
  });

  it('verity normalised JSONL', async () => {
    const record = { id: 'fever-paperdev-1', dataset: 'fever', split: 'paper_dev', claim: 'A.', label: 'SUPPORTS', label_norm: 'SUPPORTED', gold_titles: ['A'], gold_sentences: [{ title: 'A', text: 'a' }], meta: { evidence_sets: [] } };
    const { claims, stats } = await load(writeFile('verity/claims.jsonl', jsonl([record])));
    expect(stats.format).toBe('verity');
    expect(claims[0]).toEqual({
      id: 'fever-paperdev-1', dataset: 'fever', claim: 'A.', label: 'SUPPORTS', labelNorm: 'SUPPORTED', goldTitles: ['A'],
      meta: { evidence_sets: [], split: 'paper_dev', goldSentences: [{ title: 'A', text: 'a' }] },
    });
  });
});

describe('verity normalised JSONL checks', () => {
  it('rejects a label_norm that contradicts the dataset mapping, and missing fields', async () => {
    const base = { id: 'h-1', dataset: 'hover', claim: 'A.', label: 'NOT_SUPPORTED', label_norm: 'REFUTED' };
    const { claims, stats } = await load(writeFile('verity-bad/claims.jsonl', jsonl([base, { ...base, id: 'h-2', label_norm: 'SUPPORTED' }, { id: 'h-3', claim: 'B.' }])), { format: 'verity' });
    expect(claims.map((c) => c.id)).toEqual(['h-1']);
    expect(stats.malformed[0]).toEqual({ position: { line: 2 }, reason: expect.stringMatching(/label_norm SUPPORTED disagrees/) });
    expect(stats.malformed[1]?.reason).toMatch(/dataset/);
  });
});

describe('malformed records', () => {
  const good = { claim: 'Fine.', label: 'true' };
  const content = `${JSON.stringify(good)}\n{not json\n\n${JSON.stringify({ claim: '', label: 'true' })}\n${JSON.stringify({ claim: 'Odd.', label: 'maybe' })}\n${JSON.stringify(good)}\n`;

  it('are skipped and counted with their line numbers', async () => {
    const { claims, stats } = await load(writeFile('bad/factool_qa/data.jsonl', content), { format: 'fire' });
    expect(claims.map((c) => c.id)).toEqual(['factool_qa-0', 'factool_qa-5']);
    expect(stats.malformedCount).toBe(3);
    expect(stats.malformed.map((m) => m.position)).toEqual([{ line: 2 }, { line: 4 }, { line: 5 }]);
    expect(stats.malformed[0]?.reason).toMatch(/invalid JSON/);
    expect(stats.malformed[1]?.reason).toMatch(/^claim:/);
  });

  it('fail on the first one when strict', async () => {
    const file = writeFile('bad-strict/factool_qa/data.jsonl', content);
    await expect(load(file, { format: 'fire', strict: true })).rejects.toThrow(DatasetFormatError);
    await expect(load(file, { format: 'fire', strict: true })).rejects.toThrow(/data\.jsonl: line 2: invalid JSON/);
  });

  it('report duplicate ids', async () => {
    const { stats } = await load(writeFile('dup.json', JSON.stringify([hoverArray[0], hoverArray[0]])));
    expect(stats.malformed).toEqual([{ position: { index: 1 }, reason: 'duplicate id hover-a1' }]);
  });
});

describe('format detection', () => {
  it('detects from content, and the override wins', async () => {
    expect(await detectDatasetFormat(writeFile('detect/a.jsonl', jsonl(feverLines)))).toBe('fever');
    expect(await detectDatasetFormat(writeFile('detect/b.jsonl', jsonl(feverousLines)))).toBe('feverous');
    expect(await detectDatasetFormat(writeFile('detect/c.json', JSON.stringify(averitecArray)))).toBe('averitec');
    expect(await detectDatasetFormat(writeFile('detect/d.tsv', 'x'))).toBe('liar');
    await expect(detectDatasetFormat(writeFile('detect/e.jsonl', '{"foo": 1}\n'))).rejects.toThrow(/cannot detect/);
    const fireAsFever = await load(writeFile('detect/f.jsonl', jsonl([{ claim: 'Fine.', label: 'SUPPORTS' }])), { format: 'fever' });
    expect(fireAsFever.stats.format).toBe('fever');
  });
});

describe('datasetFileHash', () => {
  it('is the sha256 of the bytes', async () => {
    const file = writeFile('hash.txt', 'verity\n');
    expect(await datasetFileHash(file)).toBe(createHash('sha256').update('verity\n').digest('hex'));
  });
});

const sharedData = path.resolve(__dirname, '../../../shared/data');
const DEV_FILES: [string, number, Record<string, number>][] = [
  ['dev/hover.jsonl', 600, { SUPPORTED: 300, REFUTED: 300 }],
  ['dev/fever.jsonl', 600, { SUPPORTED: 200, REFUTED: 200, NEI: 200 }],
  ['dev/scifact.jsonl', 300, { SUPPORTED: 124, REFUTED: 64, NEI: 112 }],
  ['dev/factool_qa.jsonl', 233, { SUPPORTED: 177, REFUTED: 56 }],
  ['dev/bingcheck.jsonl', 142, { SUPPORTED: 100, REFUTED: 42 }],
  ['dev/felm_wk.jsonl', 184, { SUPPORTED: 99, REFUTED: 85 }],
  ['dev/factcheckbench.jsonl', 661, { SUPPORTED: 472, REFUTED: 159, NEI: 30 }],
  ['fixture/claims.jsonl', 100, { SUPPORTED: 47, REFUTED: 45, NEI: 8 }],
];

describe.skipIf(!fs.existsSync(sharedData))('shared data files load with the README counts', () => {
  it.each(DEV_FILES)('%s', async (name, count, labels) => {
    const { claims, stats } = await load(path.join(sharedData, name), { strict: true });
    expect(stats.format).toBe('verity');
    expect(claims).toHaveLength(count);
    const histogram: Record<string, number> = {};
    for (const claim of claims) histogram[claim.labelNorm] = (histogram[claim.labelNorm] ?? 0) + 1;
    expect(histogram).toEqual(labels);
  });

  it('the fixture hash matches the README prefix', async () => {
    expect((await datasetFileHash(path.join(sharedData, 'fixture/claims.jsonl'))).slice(0, 16)).toBe('c715ab838e1a39aa');
  });
});
