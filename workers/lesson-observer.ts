/**
 * The lessons' eyes in the worker: feeds a StepRecorder (src/lessons/observation.ts) from an
 * interactive session. A snapshot of the lab is taken when each command starts (the CommandStarted
 * trace event) and paired with its record when it ends, so a step can compare counters before and
 * after any command. Reads only; the session's output and timing are unchanged.
 */
import type { InteractiveSession } from '../src/engine';
import { type LabSnapshot, type Observation, StepRecorder } from '../src/lessons/observation';

const key = (atNs: number, host: string, command: string) =>
  `${atNs}|${host}|${command.replace(/\s*&\s*$/, '')}`;

export class LessonObserver {
  private readonly recorder: StepRecorder;
  private readonly before = new Map<string, LabSnapshot>();
  private readonly unsubscribe: () => void;

  constructor(private readonly session: InteractiveSession) {
    this.recorder = new StepRecorder(session.lab);
    this.unsubscribe = session.lab.subscribe((e) => {
      if (e.type === 'CommandStarted')
        this.before.set(key(e.atNs, e.host, e.command), this.recorder.snapshot());
    });
    session.onRecords = (records) => {
      for (const r of records) {
        const k = key(r.startNs, r.host, r.command);
        const b = this.before.get(k) ?? this.recorder.snapshot();
        this.before.delete(k);
        this.recorder.ran([r], b);
      }
    };
  }

  begin(): void {
    this.recorder.begin();
  }

  observation(): Observation {
    return this.recorder.observation();
  }

  detach(): void {
    this.unsubscribe();
    if (this.session.onRecords) this.session.onRecords = null;
  }
}
