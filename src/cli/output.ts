/** Prints a value as pretty JSON on stdout (for `--json`). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A notice for humans: stderr, so stdout stays clean for scripts. */
export function notice(message: string): void {
  process.stderr.write(`verity: ${terminalSafe(message)}\n`);
}

/** Text for humans on stdout (claims, evidence, reports), with its control characters shown escaped. */
export function printText(text: string): void {
  process.stdout.write(terminalSafe(text));
}

// C0 controls but tab and line feed, DEL, C1 controls (CSI among them) and the bidirectional overrides.
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Claims, corpus text and answers come from files, datasets and models: printed raw, an escape
 * sequence in them would drive the terminal (move the cursor, rewrite lines, change the title). They
 * are shown as visible escapes (`\x1b`, `\u202e`) instead; tabs and line breaks stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}
