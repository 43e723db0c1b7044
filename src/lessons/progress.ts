/**
 * Lesson progress saved locally, whatever the store: the caller hands in a `ProgressStorage`
 * (localStorage in the app, a Map in tests). What is kept per lesson: the steps passed, the
 * current step, and the learner's predictions with whether they were right.
 *
 * Guarantees: in embed mode nothing is ever written unless the host page asked for it
 * (`allowWrites`), as issue 6 requires; reads of a corrupt or foreign value give empty progress
 * instead of throwing; a storage that throws on write (quota, private mode) is reported, not fatal.
 */

/** The part of the Web Storage API this module uses. */
export interface ProgressStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const PROGRESS_KEY = 'ec2-netlab.lessons.v1';

export interface LessonProgress {
  /** Step ids passed, in the order they were passed. */
  passed: string[];
  /** Index of the step the learner is on. */
  current: number;
  /** Step id → the learner's guess and whether it was within the tolerance. */
  predictions: Record<string, { guess: number; right: boolean }>;
}

export interface Progress {
  version: 1;
  lessons: Record<string, LessonProgress>;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checked by hand (the page loads this without a schema library): anything unexpected → null. */
function asLessonProgress(v: unknown): LessonProgress | null {
  if (!isObj(v)) return null;
  const { passed, current, predictions } = v;
  if (!Array.isArray(passed) || !passed.every((x) => typeof x === 'string')) return null;
  if (typeof current !== 'number' || !Number.isInteger(current) || current < 0) return null;
  if (!isObj(predictions)) return null;
  const preds: LessonProgress['predictions'] = {};
  for (const [k, p] of Object.entries(predictions)) {
    if (!isObj(p) || typeof p.guess !== 'number' || typeof p.right !== 'boolean') return null;
    preds[k] = { guess: p.guess, right: p.right };
  }
  return { passed: [...passed], current, predictions: preds };
}

function asProgress(v: unknown): Progress | null {
  if (!isObj(v) || v.version !== 1 || !isObj(v.lessons)) return null;
  const lessons: Record<string, LessonProgress> = {};
  for (const [k, l] of Object.entries(v.lessons)) {
    const p = asLessonProgress(l);
    if (!p) return null;
    lessons[k] = p;
  }
  return { version: 1, lessons };
}

export const emptyLessonProgress = (): LessonProgress => ({ passed: [], current: 0, predictions: {} });

export interface ProgressOptions {
  /** The app runs embedded in another page (`embed=1`). */
  embed: boolean;
  /** In embed mode: the host page asked the lab to keep progress. Ignored outside embed mode. */
  hostAllowsWrites?: boolean;
}

/** A progress store over any storage; `null` storage (none available) keeps progress in memory only. */
export class ProgressStore {
  private state: Progress;
  /** The last write error, if the storage refused (quota, private browsing). */
  lastError: string | null = null;

  constructor(
    private readonly storage: ProgressStorage | null,
    private readonly opts: ProgressOptions,
  ) {
    this.state = this.read();
  }

  /** Whether this store writes to its storage at all. */
  get persistent(): boolean {
    return this.storage !== null && (!this.opts.embed || this.opts.hostAllowsWrites === true);
  }

  private read(): Progress {
    const empty: Progress = { version: 1, lessons: {} };
    if (!this.storage) return empty;
    let raw: string | null;
    try {
      raw = this.storage.getItem(PROGRESS_KEY);
    } catch {
      return empty;
    }
    if (raw === null) return empty;
    try {
      return asProgress(JSON.parse(raw)) ?? empty;
    } catch {
      return empty;
    }
  }

  private write(): void {
    if (!this.persistent) return;
    try {
      this.storage!.setItem(PROGRESS_KEY, JSON.stringify(this.state));
      this.lastError = null;
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
    }
  }

  get(lessonId: string): LessonProgress {
    const p = this.state.lessons[lessonId];
    return p
      ? { passed: [...p.passed], current: p.current, predictions: { ...p.predictions } }
      : emptyLessonProgress();
  }

  private update(lessonId: string, f: (p: LessonProgress) => void): LessonProgress {
    const p = this.get(lessonId);
    f(p);
    this.state = { ...this.state, lessons: { ...this.state.lessons, [lessonId]: p } };
    this.write();
    return p;
  }

  /** Mark a step passed and move to the next one (`stepCount` bounds the index). */
  passStep(lessonId: string, stepId: string, stepIndex: number, stepCount: number): LessonProgress {
    return this.update(lessonId, (p) => {
      if (!p.passed.includes(stepId)) p.passed.push(stepId);
      p.current = Math.min(Math.max(p.current, stepIndex + 1), Math.max(0, stepCount - 1));
    });
  }

  /** Go to a step (the learner navigates back or forward). */
  setCurrent(lessonId: string, stepIndex: number): LessonProgress {
    return this.update(lessonId, (p) => {
      p.current = Math.max(0, Math.floor(stepIndex));
    });
  }

  recordPrediction(lessonId: string, stepId: string, guess: number, right: boolean): LessonProgress {
    return this.update(lessonId, (p) => {
      p.predictions[stepId] = { guess, right };
    });
  }

  /** Whether every step of a lesson has been passed. */
  isComplete(lessonId: string, stepIds: readonly string[]): boolean {
    const p = this.get(lessonId);
    return stepIds.every((id) => p.passed.includes(id));
  }

  reset(lessonId?: string): void {
    if (lessonId === undefined) this.state = { version: 1, lessons: {} };
    else {
      const { [lessonId]: _gone, ...rest } = this.state.lessons;
      this.state = { ...this.state, lessons: rest };
    }
    if (!this.persistent) return;
    try {
      if (lessonId === undefined) this.storage!.removeItem(PROGRESS_KEY);
      else this.storage!.setItem(PROGRESS_KEY, JSON.stringify(this.state));
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
    }
  }
}
