/**
 * Per-method settings carried by a verification's input (sandbox-safe, types only). Each method
 * reads its own entry and resolves it against its defaults; absent entries mean "defaults".
 *
 * Each method adds its entry from its own folder (src/methods/<m>/index.ts, by declaration merging:
 * `declare module '../../shared/method-settings' { interface MethodSettingsByName { <m>: … } }`), so
 * this lower folder names no method and imports nothing from above; the registry checks that its
 * methods and these entries are the same set.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the methods' augmentations
export interface MethodSettingsByName {}

/** A registered method's name (`--method`, `methods:` in sweep configs, a verification's `input.method`). */
export type MethodName = keyof MethodSettingsByName & string;

export type MethodSettings = { [M in MethodName]?: MethodSettingsByName[M] };

/** The entry of `method` alone (what one verification of that method needs), or undefined. */
export function settingsOfMethod(all: MethodSettings | undefined, method: string): MethodSettings | undefined {
  const entry = all?.[method as keyof MethodSettings];
  return entry === undefined ? undefined : ({ [method]: entry } as MethodSettings);
}
