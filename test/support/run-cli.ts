// Runs the verity CLI from source (tests spawn it as a separate process: `node --import tsx test/support/run-cli.ts …`).
import { main } from '../../src/cli/main';

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
