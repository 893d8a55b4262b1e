import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaultSpec } from '../../src/simulator/faults';

describe('faults on matching requests', () => {
  it('parses match and first-match specs (the text may contain colons)', () => {
    expect(parseFaultSpec('malformed:match=rag_verdict')).toEqual({ kind: 'malformed', match: 'rag_verdict' });
    expect(parseFaultSpec('malformed:first-match=a:b')).toEqual({ kind: 'malformed', match: 'a:b', times: 1 });
    expect(() => parseFaultSpec('418:match=x')).toThrow(/invalid fault/);
  });

  it('injects on every request whose body contains the text, and only those', () => {
    const injector = new FaultInjector([{ kind: 'malformed', match: 'emulate_answer' }]);
    expect(['{"x":"emulate_answer"}', '{"x":"other"}', 'emulate_answer'].map((body) => injector.next(body))).toEqual(['malformed', undefined, 'malformed']);
  });

  it('stops after `times` injections, and starts over on reset', () => {
    const injector = new FaultInjector([{ kind: 'malformed', match: 'claim A', times: 1 }]);
    expect(['claim A', 'claim A', 'claim B'].map((body) => injector.next(body))).toEqual(['malformed', undefined, undefined]);
    injector.reset();
    expect(injector.next('claim A')).toBe('malformed');
  });
});
