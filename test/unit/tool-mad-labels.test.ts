import { describe, expect, it } from 'vitest';
import { labelTexts, parseFinalLabel, resolveLabelSetName, verdictOfLabel, withoutLabelLine } from '../../src/methods/tool-mad/sandbox/tool-mad-labels';

describe('Tool-MAD final-label parser (spec §8.2)', () => {
  it.each([
    ['The document says so.\n**SUPPORTS**', 'SUPPORTS'],
    ['Reasoning.\n\nREFUTES.', 'REFUTES'],
    ['Reasoning.\n**Not enough info**\n', 'NOT ENOUGH INFO'],
    ['Reasoning.\nNOT ENOUGH INFORMATION', 'NOT ENOUGH INFO'],
    ['Reasoning.\nFinal answer: NEI', 'NOT ENOUGH INFO'],
    ['Reasoning.\nnot_enough_info', 'NOT ENOUGH INFO'],
    ['It might SUPPORT nothing; the evidence REFUTES it, then I ended without a label line.', 'REFUTES'],
    ['The claim SUPPORTS nothing.\nIn the end the answer is unclear: NOT ENOUGH INFO but first it said REFUTES', 'REFUTES'],
  ])('%j → %s', (answer, label) => {
    expect(parseFinalLabel(answer, 'fever')).toBe(label);
  });

  it('a label mentioned mid-text counts only when the last line names none; the last mention wins', () => {
    expect(parseFinalLabel('SUPPORTS at first sight, but the dates differ: REFUTES.\nThat is my view.', 'fever')).toBe('REFUTES');
  });

  it('is null when no label of the set appears, and does not read NEI inside NEITHER', () => {
    expect(parseFinalLabel('Neither document mentions it.\nI cannot say.', 'fever')).toBeNull();
    expect(parseFinalLabel('', 'fever')).toBeNull();
    expect(parseFinalLabel('The evidence is thin.\nNOT ENOUGH INFO', 'binary')).toBeNull();
  });

  it('reads a negated label on the last line as its counterpart, never as itself', () => {
    expect(parseFinalLabel('The evidence says nothing of it.\nTherefore, the claim is not supported.', 'fever')).toBe('NOT ENOUGH INFO');
    expect(parseFinalLabel('SUPPORTS was my first view.\nThe claim is not supported.', 'binary')).toBe('REFUTES');
    expect(parseFinalLabel("The claim isn't fully supported.", 'averitec')).toBe('NOT ENOUGH EVIDENCE');
    expect(parseFinalLabel('It is not refuted either.\nNOT ENOUGH INFO', 'fever')).toBe('NOT ENOUGH INFO');
    expect(parseFinalLabel('The claim is supported.', 'fever')).toBe('SUPPORTS');
    // Recorded debates replay with the parser they were made with.
    expect(parseFinalLabel('The claim is not supported.', 'fever', { negation: false })).toBe('SUPPORTS');
  });

  it('reads the AVeriTeC labels, including the conflicting-evidence one', () => {
    expect(parseFinalLabel('Mixed sources.\n**Conflicting Evidence/Cherrypicking**', 'averitec')).toBe('CONFLICTING EVIDENCE/CHERRYPICKING');
    expect(parseFinalLabel('x\nNot Enough Evidence', 'averitec')).toBe('NOT ENOUGH EVIDENCE');
    expect(verdictOfLabel('averitec', 'CONFLICTING EVIDENCE/CHERRYPICKING')).toBe('NEI');
    expect(verdictOfLabel('fever', 'REFUTES')).toBe('REFUTED');
  });

  it('fuzz: never throws and returns a label of the set or null', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = 'ab *\n.:SUPORTEFNIHG_[]()"';
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: next() % 80 }, () => alphabet[next() % alphabet.length]).join('');
      const label = parseFinalLabel(text, 'fever');
      expect(label === null || labelTexts('fever').includes(label)).toBe(true);
    }
  });
});

describe('label sets', () => {
  // tool-mad.md §10 #11: AVeriTeC Option A (three labels) is the default, Option B (four) asked by name; FaVIQ gets the three too.
  it("auto gives every dataset FEVER's three labels (AVeriTeC's Option A); averitec and binary are asked for by name", () => {
    expect(resolveLabelSetName('auto', 'averitec')).toBe('fever');
    expect(resolveLabelSetName('auto', 'faviq-a')).toBe('fever');
    expect(resolveLabelSetName('auto', 'hover')).toBe('fever');
    expect(resolveLabelSetName('auto', undefined)).toBe('fever');
    expect(resolveLabelSetName('averitec', 'averitec')).toBe('averitec');
    expect(resolveLabelSetName('binary', 'averitec')).toBe('binary');
    expect(labelTexts('binary')).toEqual(['SUPPORTS', 'REFUTES']);
    expect(labelTexts('fever')).toEqual(['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO']);
  });

  it('executions before the spec defaults (patch tool-mad-spec-label-sets) keep picking by dataset: AVeriTeC four labels, FaVIQ binary', () => {
    expect(resolveLabelSetName('auto', 'averitec', { specDefaults: false })).toBe('averitec');
    expect(resolveLabelSetName('auto', 'faviq-a', { specDefaults: false })).toBe('binary');
    expect(resolveLabelSetName('auto', 'hover', { specDefaults: false })).toBe('fever');
  });

  it('withoutLabelLine strips a short final label line only', () => {
    expect(withoutLabelLine('Reason one.\nReason two.\n**SUPPORTS**\n', 'fever')).toBe('Reason one.\nReason two.');
    expect(withoutLabelLine('All reasoning, and so the claim clearly REFUTES what the documents describe in detail at length.', 'fever')).toBe(
      'All reasoning, and so the claim clearly REFUTES what the documents describe in detail at length.',
    );
  });
});
