// `npm run infra:traces -- install|up|down`: the Phoenix trace viewer (infra/phoenix.ts).
import { loadConfig } from '../src/config/config';
import { ensurePhoenix, installPhoenix, stopPhoenix } from './phoenix';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(command: string | undefined): Promise<void> {
  const { dataDir } = loadConfig();
  if (command === 'install') {
    log(`phoenix: installed at ${await installPhoenix(dataDir, log)}`);
  } else if (command === 'up') {
    await installPhoenix(dataDir, log);
    const phoenix = await ensurePhoenix(dataDir, undefined, log);
    log(`phoenix: ${phoenix.state} at ${phoenix.url}; send traces with OTEL_EXPORTER_OTLP_ENDPOINT=${phoenix.url}`);
  } else if (command === 'down') {
    log(`phoenix: ${await stopPhoenix(dataDir)}`);
  } else {
    throw new Error('usage: npm run infra:traces -- install|up|down');
  }
}

main(process.argv[2]).catch((err: unknown) => {
  log(`infra:traces: ${(err as Error).message}`);
  process.exit(1);
});
