import { describe, expect, it } from 'vitest';
import { leadingDocComment } from '../../eval/bench/support/usage';

describe('benchmark usage text', () => {
  it('is the leading doc comment without its comment markers', () => {
    const source = '/**\n * Counts things.\n *\n *   npx tsx eval/bench/x.ts [--sample N]\n */\nimport fs from "node:fs";\n/** not this one */';
    expect(leadingDocComment(source)).toBe('Counts things.\n\n  npx tsx eval/bench/x.ts [--sample N]');
  });

  it('says so when a script documents nothing', () => {
    expect(leadingDocComment('import fs from "node:fs";')).toBe('no usage documented');
  });
});
