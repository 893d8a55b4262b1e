/**
 * Rounds like Python's round(x, digits): to the nearest value of the *exact* binary double,
 * exact ties to even. (JS toFixed is also exact but breaks ties upwards; Math.round(x*100)/100
 * is not exact at all.) Papers' numbers come from Python, so reproductions must round alike.
 */
export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  const isTie = rest[0] === '5' && /^0*$/.test(rest.slice(1));
  const kept = exact.slice(0, digits === 0 ? point : point + 1 + digits);
  const magnitude = isTie ? roundTieToEven(kept, digits) : Number(Math.abs(x).toFixed(digits));
  return Math.sign(x) * magnitude;
}

function roundTieToEven(truncated: string, digits: number): number {
  const lastDigit = Number(truncated[truncated.length - 1]);
  const value = Number(truncated);
  return lastDigit % 2 === 0 ? value : Number((value + 10 ** -digits).toFixed(digits));
}
