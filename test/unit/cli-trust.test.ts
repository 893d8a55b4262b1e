import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/cli/output';
import { plainTransportReason } from '../../src/client/temporal';
import { assertValidScope, InvalidMemoryScopeError } from '../../src/memory/scope';
import { parseEntryLine } from '../../src/memory/jsonl';
import { MemoryFileError } from '../../src/memory/jsonl';
import { characterCount, findVerifyInputProblem } from '../../src/shared/verify';
import { METHOD_NAMES } from '../../src/methods/registry';

describe('claim length in characters', () => {
  const emoji = '😀'; // one character, two UTF-16 units

  it('counts code points, not UTF-16 units', () => {
    expect(emoji.length).toBe(2);
    expect(characterCount(emoji.repeat(10))).toBe(10);
    expect(characterCount('𠀋 café')).toBe(6);
  });

  it('accepts 5,000 emoji (10,000 UTF-16 units) and refuses 5,001 characters, naming the count', () => {
    expect(findVerifyInputProblem({ claim: emoji.repeat(5000), method: 'rag' }, METHOD_NAMES)).toBeNull();
    expect(findVerifyInputProblem({ claim: emoji.repeat(5001), method: 'rag' }, METHOD_NAMES)).toBe('the claim has 5001 characters; at most 5000 are accepted');
    // Replaying a verification recorded before: the old measure, so its outcome is unchanged.
    expect(findVerifyInputProblem({ claim: emoji.repeat(2501), method: 'rag' }, METHOD_NAMES, { utf16Units: true })).toBe('the claim has 5002 characters; at most 5000 are accepted');
  });
});

describe('terminal output', () => {
  it('shows control characters of claims and corpus text as visible escapes; tabs and line breaks stay', () => {
    const hostile = 'Paris\x1b[2J\x1b]0;pwned\x07 is\rthe capital\b\x9b31m \u202eevil\u2069\tok\nnext';
    const safe = terminalSafe(hostile);
    expect(safe).toBe('Paris\\x1b[2J\\x1b]0;pwned\\x07 is\\x0dthe capital\\x08\\x9b31m \\u202eevil\\u2069\tok\nnext');
    // eslint-disable-next-line no-control-regex
    expect(safe).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(terminalSafe('Ünïcödé — 東京 😀')).toBe('Ünïcödé — 東京 😀');
  });
});

describe('one-line errors', () => {
  it("reduces tonic's transport error to the operating system's reason", () => {
    const raw =
      'tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:20199, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))';
    expect(plainTransportReason(raw)).toBe('connection refused');
    expect(plainTransportReason('tonic::transport::Error(Transport, ConnectError("dns error"))')).toBe('dns error');
    expect(plainTransportReason('deadline exceeded')).toBe('deadline exceeded');
  });
});

describe('memory scopes: one schema for the CLI and imported files', () => {
  const entry = (runScope: string) =>
    JSON.stringify({
      id: 'e1',
      runScope,
      claimId: 'c1',
      entityKeys: ['Paris'],
      keywords: ['paris'],
      tool: 'search_wikipedia',
      args: { query: 'Paris' },
      dedupKey: 'k',
      observation: 'Paris is the capital of France.',
      createdAt: '2026-01-01T00:00:00.000Z',
    });

  it.each(['run:a b', '../escape', '', 'x'.repeat(201), 'run:\x1b[2J'])('refuses scope %j on the command line and in an imported line alike', (scope) => {
    expect(() => assertValidScope(scope)).toThrow(InvalidMemoryScopeError);
    expect(() => parseEntryLine(entry(scope), 3)).toThrow(MemoryFileError);
    expect(() => parseEntryLine(entry(scope), 3)).toThrow(/^line 3: not a memory entry \(runScope: /);
  });
});
