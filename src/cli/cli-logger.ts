import type { VerityConfig } from '../config/config';
import { createLogger, type Logger } from '../logging/logger';

/**
 * Interactive commands print their own progress; the logs of their in-process worker stay at
 * 'error' unless VERITY_LOG_LEVEL asks for more.
 */
export function createCliLogger(config: VerityConfig): Logger {
  return createLogger(process.env.VERITY_LOG_LEVEL ? config.logLevel : 'error');
}
