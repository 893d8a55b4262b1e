/** An error the CLI reports as one line with a chosen exit code (2: bad usage or input). */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
