import { SingleBar } from 'cli-progress';
import { humanDuration } from '../shared/human-duration';
import { estimateRemainingMs } from '../shared/sweep';
import { terminalSafe } from './output';

/** Where a long command stands: done of total, with what went wrong and what it cost so far. */
export interface ProgressUpdate {
  done: number;
  total: number;
  failed?: number;
  /** Spent so far (USD); left out when the command spends nothing. */
  costUsd?: number;
  /** A new phase (e.g. `extracting claims` → `verifying`) restarts the rate and the ETA. */
  phase?: string;
  /** What done and total count in this update, when it is not the command's unit (a phase's own). */
  unit?: string;
  /** Anything else worth a glance, shown last (`3 running`, `1204 documents`). */
  detail?: string;
}

export interface ProgressOptions {
  /** What runs, first on every line: `sweep dev-600`, `ingest wiki`. */
  label: string;
  /** What done and total count (`verifications`, `claims`); with `scale`, the unit of the scaled numbers. */
  unit: string;
  /** Shown numbers are done / scale (bytes as MB: 1e6), with one decimal. */
  scale?: number;
  /** Least time between two progress lines when the stream is not a terminal. */
  intervalMs: number;
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  now?: () => number;
}

interface Pace {
  /** Done per ms over this process's observations of the phase; undefined before any progress. */
  perMs: number | undefined;
  etaMs: number | undefined;
}

/** The figures of one progress line, without the label: `12/40 verifications (30%) · 4.1/min · ETA 7 min · 1 failed · $0.0123 so far`. */
export function progressText(update: ProgressUpdate, pace: Pace, options: Pick<ProgressOptions, 'unit' | 'scale'>): string {
  const scale = options.scale ?? 1;
  const shown = (value: number) => (scale === 1 ? String(value) : (value / scale).toFixed(1));
  const percent = update.total > 0 ? ` (${Math.floor((100 * Math.min(update.done, update.total)) / update.total)}%)` : '';
  const parts = [
    `${update.phase ? `${update.phase}: ` : ''}${shown(update.done)}/${shown(update.total)} ${update.unit ?? options.unit}${percent}`,
    `${rateText(pace.perMs, scale)}`,
    `ETA ${update.done >= update.total ? '0 s' : humanDuration(pace.etaMs)}`,
    ...(update.failed !== undefined ? [`${update.failed} failed`] : []),
    ...(update.costUsd !== undefined ? [`$${update.costUsd.toFixed(4)} so far`] : []),
    ...(update.detail ? [update.detail] : []),
  ];
  return parts.join(' · ');
}

function rateText(perMs: number | undefined, scale: number): string {
  if (perMs === undefined) return 'rate –';
  const perSecond = (perMs * 1000) / scale;
  if (perSecond >= 1) return `${perSecond.toFixed(1)}/s`;
  return `${(perSecond * 60).toFixed(1)}/min`;
}

/**
 * Progress of a long command on stderr, one helper for every such command: a live bar when stderr is
 * a terminal; otherwise (a file, a pipe, CI) a progress line at most every `intervalMs`, on the first
 * update, when a phase begins and at the end — never silence for the length of a run, never a line per item.
 * Rate and ETA come from the pace this process saw (work done before it attached does not count).
 */
export class CommandProgress {
  private readonly stream: NonNullable<ProgressOptions['stream']>;
  private readonly now: () => number;
  private readonly tty: boolean;
  private bar: SingleBar | undefined;
  private latest: ProgressUpdate | undefined;
  private phaseStart: { at: number; done: number; phase: string | undefined } | undefined;
  private lastLineAt: number | undefined;
  private lastLine = '';

  constructor(private readonly options: ProgressOptions) {
    this.stream = options.stream ?? process.stderr;
    this.now = options.now ?? Date.now;
    this.tty = this.stream.isTTY === true;
  }

  update(update: ProgressUpdate): void {
    const now = this.now();
    const newPhase = this.phaseStart === undefined || this.phaseStart.phase !== update.phase;
    if (newPhase || update.done < (this.phaseStart?.done ?? 0)) this.phaseStart = { at: now, done: update.done, phase: update.phase };
    this.latest = update;
    const text = progressText(update, this.pace(update, now), this.options);
    if (this.tty) this.draw(update, text, newPhase);
    else if (newPhase || this.lastLineAt === undefined || now - this.lastLineAt >= this.options.intervalMs) this.writeLine(text, now);
  }

  /** Ends the bar, or writes the last state as a line if it was not written yet; a second call does nothing. */
  finish(): void {
    const latest = this.latest;
    this.latest = undefined;
    if (this.bar) {
      this.bar.stop();
      this.bar = undefined;
      return;
    }
    if (!this.tty && latest) {
      const text = progressText(latest, this.pace(latest, this.now()), this.options);
      if (text !== this.lastLine) this.writeLine(text, this.now());
    }
  }

  private pace(update: ProgressUpdate, now: number): Pace {
    const start = this.phaseStart;
    const elapsed = start ? now - start.at : 0;
    const progressed = start ? update.done - start.done : 0;
    const etaMs = estimateRemainingMs(progressed, elapsed, Math.max(0, update.total - update.done));
    return etaMs === undefined ? { perMs: undefined, etaMs } : { perMs: progressed / elapsed, etaMs };
  }

  private draw(update: ProgressUpdate, text: string, newPhase: boolean): void {
    if (newPhase && this.bar) {
      this.bar.stop();
      this.bar = undefined;
    }
    if (!this.bar) {
      this.bar = new SingleBar({ format: `${terminalSafe(this.options.label)} {bar} {text}`, stream: this.stream, hideCursor: true, barsize: 24 });
      this.bar.start(Math.max(update.total, 1), Math.min(update.done, Math.max(update.total, 1)), { text: terminalSafe(text) });
      return;
    }
    this.bar.setTotal(Math.max(update.total, 1));
    this.bar.update(Math.min(update.done, Math.max(update.total, 1)), { text: terminalSafe(text) });
  }

  private writeLine(text: string, now: number): void {
    this.stream.write(`${terminalSafe(`${this.options.label}: ${text}`)}\n`);
    this.lastLine = text;
    this.lastLineAt = now;
  }
}
