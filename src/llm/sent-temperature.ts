import { capabilitiesOf } from './capabilities';

/**
 * The temperature as it reaches `model`'s server: the number, or "not sent" for models that refuse
 * it (OpenAI's reasoning models take only their default), so no record claims a temperature the
 * model never saw.
 */
export function sentTemperature(model: string, temperature: number | undefined): string {
  if (capabilitiesOf(model).omittedParameters.includes('temperature')) return 'not sent (the model refuses it; its default applies)';
  return temperature === undefined ? 'the method default' : String(temperature);
}
