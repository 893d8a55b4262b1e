import { METHOD_NAMES, METHOD_REGISTRY, type MethodName } from './registry';

/**
 * The version of each method's answer-changing behaviour that its settings do not spell out, such
 * as a changed default (each definition's `behaviourVersion`). Bumping one makes verifications new
 * (they enter the identity with the prompt versions), so verdicts made under the old behaviour are
 * never reused for the new one.
 */
export const METHOD_BEHAVIOUR_VERSIONS: Readonly<Record<MethodName, number>> = Object.fromEntries(
  METHOD_NAMES.map((name) => [name, METHOD_REGISTRY[name].behaviourVersion]),
) as Record<MethodName, number>;
