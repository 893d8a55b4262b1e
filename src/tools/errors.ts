import { TOOL_FAILURE_TYPES, type ToolFailureType } from '../shared/tools';

export type ToolErrorKind = keyof typeof TOOL_FAILURE_TYPES;

/** Faults a later attempt of the same call may not hit. */
const RETRYABLE_KINDS: ReadonlySet<ToolErrorKind> = new Set(['rateLimited', 'unavailable']);

/**
 * Outcomes that are answers for the calling agent (its arguments, its title or its URL were wrong),
 * not failures of the system: activities return them as error observations instead of failing.
 */
const AGENT_ERROR_KINDS: ReadonlySet<ToolErrorKind> = new Set([
  'invalidArguments',
  'unknownTool',
  'notFound',
  'blockedUrl',
  'unreadable',
]);

/** Every failure of a tool call, typed by `kind`. */
export class ToolError extends Error {
  override name = 'ToolError';

  constructor(
    readonly kind: ToolErrorKind,
    message: string,
    readonly details: { retryAfterSeconds?: number; suggestions?: string[] } = {},
  ) {
    super(message);
  }

  get failureType(): ToolFailureType {
    return TOOL_FAILURE_TYPES[this.kind];
  }

  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }

  get isAgentError(): boolean {
    return AGENT_ERROR_KINDS.has(this.kind);
  }
}

/** The arguments do not match the tool's input schema. */
export class InvalidToolArgumentsError extends ToolError {
  override name = 'InvalidToolArgumentsError';

  constructor(
    readonly tool: string,
    readonly issues: string[],
  ) {
    super('invalidArguments', `Input validation error for ${tool}: ${issues.join('; ')}`);
  }
}
