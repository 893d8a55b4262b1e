/** Starts `verity mcp` directly (e.g. `node --import tsx src/cli/mcp-entry.ts`), without the CLI parser. */
import { serveMcp } from './commands/mcp';

serveMcp({ index: process.env.VERITY_MCP_INDEX }).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`verity mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
