/** Prints a value as pretty JSON on stdout (for `--json`). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A notice for humans: stderr, so stdout stays clean for scripts. */
export function notice(message: string): void {
  process.stderr.write(`verity: ${message}\n`);
}
