import fs from 'node:fs';

/**
 * `--help` / `-h` for a benchmark script: prints the script's leading doc comment (its usage and
 * options, kept in one place) and exits. The scripts' own argument parsers reject unknown flags.
 */
export function exitWithUsageIfAsked(scriptFile: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  process.stdout.write(`${leadingDocComment(fs.readFileSync(scriptFile, 'utf8'))}\n`);
  process.exit(0);
}

export function leadingDocComment(source: string): string {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match) return 'no usage documented';
  return match[1]!
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}
