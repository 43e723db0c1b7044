/**
 * The lessons panel: the missions (NET402's agenda), the current step with its goal as live
 * predicates (each its sentence, checked / not yet / not met, with the number the lab reported
 * under it), a predict box
 * (lock a number in before the run; the answer and its reason appear when the step passes),
 * hints, and the solution's command lines (click to type one). Acts through the lab controller;
 * the lab's observation comes from the worker, the verdict is computed here by src/lessons.
 * Progress is kept in localStorage, never in embed mode unless the host page asked (keep-progress).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { LESSON_DOCUMENTS } from '../../lessons/documents';
import {
  evaluateStep,
  judgePrediction,
  type PredictionResult,
  type StepResult,
} from '../../lessons/evaluate';
import { type ProgressStorage, ProgressStore } from '../../lessons/progress';
import type { LessonInput, Predicate, Predict } from '../../lessons/schema';
import { useApp, useAppStore, useLab } from '../context';
import './lessons.css';

type StepDoc = LessonInput['steps'][number];

function browserStorage(): ProgressStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy settings): progress lives for the page only
  }
}

export function LessonsPanel({
  storage,
  lessons = LESSON_DOCUMENTS,
}: {
  /** Where progress is kept (default: localStorage when the browser allows it). */
  storage?: ProgressStorage | null;
  /** The missions offered (default: the lab's own, in NET402's order). */
  lessons?: readonly LessonInput[];
}) {
  const lab = useLab();
  const store = useAppStore();
  const embed = useApp((s) => s.env.embed);
  const hostAllowsWrites = useApp((s) => s.env.hostKeepsProgress);
  const presetId = useApp((s) => s.scenario.presetId);
  const nowNs = useApp((s) => s.playback.nowNs);
  const chunkCount = useApp((s) => s.terminal.chunks.length);
  const progress = useMemo(
    () => new ProgressStore(storage === undefined ? browserStorage() : storage, { embed, hostAllowsWrites }),
    [storage, embed, hostAllowsWrites],
  );
  const [lessonId, setLessonId] = useState<string | null>(null);
  const [stepIndex, setStepIndex] = useState(0);
  /** The verdict on the step's window; null until the learner has run a command in this step. */
  const [result, setResult] = useState<StepResult | null>(null);
  const [guessText, setGuessText] = useState('');
  const [locked, setLocked] = useState<number | null>(null);
  const [prediction, setPrediction] = useState<PredictionResult | null>(null);
  const [hintsShown, setHintsShown] = useState(0);
  const [showSolution, setShowSolution] = useState(false);
  const [, setTick] = useState(0);
  const inFlight = useRef(false);
  const dirty = useRef(false);

  // a lesson link (or a session kept across a reload) asks for a lesson at a step: its scenario is
  // loaded already; the panel shows it
  const request = useApp((s) => s.env.openLesson);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  /**
   * Opened (from the list, or by a link) or moved to another step: the step's title brought into
   * view once shown (the list it was chosen from may have left the panel scrolled far below it).
   */
  const reveal = useRef(false);
  useLayoutEffect(() => {
    const h = stepHeading.current;
    if (!reveal.current || !h) return;
    reveal.current = false;
    // the step's title at the top of the panel that scrolls it (a desktop's tab panel); where the
    // page itself scrolls (a phone), the lesson's panel into view. The page is not moved otherwise.
    let box = h.parentElement;
    while (
      box &&
      box !== document.body &&
      !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))
    )
      box = box.parentElement;
    if (box && box !== document.body)
      box.scrollTop += h.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
    else h.closest('section')?.scrollIntoView?.({ block: 'nearest' });
  });
  useEffect(() => {
    if (!request) return;
    reveal.current = true;
    store.setState((s) => ({ env: { ...s.env, openLesson: null } }));
    const l = lessons.find((x) => x.id === request.lessonId);
    if (!l) return;
    const i = Math.min(request.step ?? progress.get(l.id).current, l.steps.length - 1);
    setLessonId(l.id);
    setStepIndex(i);
    progress.setCurrent(l.id, i);
    setResult(null);
    setGuessText('');
    setLocked(null);
    setPrediction(null);
    setHintsShown(0);
    setShowSolution(false);
  }, [request, lessons, progress, store]);

  const lesson = lessons.find((l) => l.id === lessonId) ?? null;
  const step: StepDoc | null = lesson?.steps[stepIndex] ?? null;
  // another scenario was loaded (the experiment picker): the lesson is left
  const active = lesson !== null && presetId === `lesson:${lesson.id}`;

  const resetStep = () => {
    setResult(null);
    setGuessText('');
    setLocked(null);
    setPrediction(null);
    setHintsShown(0);
    setShowSolution(false);
  };

  const start = async (l: LessonInput) => {
    reveal.current = true;
    setLessonId(l.id);
    setStepIndex(Math.min(progress.get(l.id).current, l.steps.length - 1));
    resetStep();
    await lab.loadLesson(l.id, l.scenario, l.title);
  };

  const goTo = async (i: number) => {
    if (!lesson) return;
    reveal.current = true;
    setStepIndex(i);
    progress.setCurrent(lesson.id, i);
    resetStep();
    await lab.lessonBegin();
  };

  // live check: fetch the step's observation when the lab moves (one request in flight)
  const labMoved = `${nowNs}:${chunkCount}`;
  useEffect(() => {
    if (!active || !lesson || !step || labMoved === '') return;
    const check = async () => {
      if (inFlight.current) {
        dirty.current = true;
        return;
      }
      inFlight.current = true;
      try {
        const obs = await lab.lessonObservation();
        if (!obs) return;
        // before any command in this step every goal reads "not yet", even one a counter already fails
        if (obs.commands.length === 0) {
          setResult(null);
          return;
        }
        const r = evaluateStep(obs, { goal: step.goal as Predicate[] });
        setResult(r);
        if (r.passed) {
          if (!progress.get(lesson.id).passed.includes(step.id)) {
            progress.passStep(lesson.id, step.id, stepIndex, lesson.steps.length);
            store.setState((s) => ({
              env: { ...s.env, announcement: `Step passed: ${step.title}` },
            }));
          }
          if (step.predict && locked !== null) {
            const p = judgePrediction(obs, step.predict as Predict, locked);
            setPrediction(p);
            progress.recordPrediction(lesson.id, step.id, locked, p.right);
          }
          setTick((t) => t + 1);
        }
      } finally {
        inFlight.current = false;
        if (dirty.current) {
          dirty.current = false;
          void check();
        }
      }
    };
    void check();
  }, [active, lesson, step, stepIndex, labMoved, locked, lab, progress, store]);

  // the lesson's progress, for the host page of an embedded lab (the postMessage bridge)
  const passedCount = lesson ? progress.get(lesson.id).passed.length : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: passedCount: the progress store is mutable, a passed step must re-run this
  useEffect(() => {
    const value =
      lesson && active
        ? {
            lessonId: lesson.id,
            step: stepIndex,
            steps: lesson.steps.length,
            done: progress.isComplete(
              lesson.id,
              lesson.steps.map((s) => s.id),
            ),
          }
        : null;
    if (JSON.stringify(store.getState().env.lesson) !== JSON.stringify(value))
      store.setState((s) => ({ env: { ...s.env, lesson: value } }));
  }, [lesson, active, stepIndex, passedCount, progress, store]);

  if (!lesson || !step) {
    return (
      <section className="panel lessons" aria-label="Lessons">
        <h2>Lessons</h2>
        <p className="muted">
          Guided missions that follow the NET402 talk. Each checks what the lab reports.
        </p>
        <ol className="lesson-list">
          {lessons.map((l) => {
            const done = progress.isComplete(
              l.id,
              l.steps.map((s) => s.id),
            );
            return (
              <li key={l.id}>
                <button type="button" disabled={l.draft !== undefined} onClick={() => void start(l)}>
                  {done ? '✓ ' : ''}
                  {l.title}
                </button>
                {l.draft ? <span className="muted"> draft: needs {l.draft.needs.join(', ')}</span> : null}
              </li>
            );
          })}
        </ol>
      </section>
    );
  }

  const passed = result?.passed === true;
  const done = progress.get(lesson.id).passed;
  return (
    <section className="panel lessons" aria-label={`Lesson: ${lesson.title}`}>
      <div className="panel-head">
        <h2>{lesson.title}</h2>
        <button type="button" onClick={() => setLessonId(null)}>
          All lessons
        </button>
      </div>
      {!active ? (
        <p className="notice">
          Another scenario is loaded.{' '}
          <button type="button" onClick={() => void start(lesson)}>
            Back to this lesson
          </button>
        </p>
      ) : null}
      <details className="lesson-about">
        <summary>About this lesson</summary>
        <p>{lesson.summary}</p>
        <p className="muted">NET402: {lesson.talk}</p>
      </details>
      <nav className="lesson-steps" aria-label="Steps">
        {lesson.steps.map((s, i) => (
          <button
            key={s.id}
            type="button"
            aria-current={i === stepIndex ? 'step' : undefined}
            aria-label={`Step ${i + 1}${done.includes(s.id) ? ' (passed)' : ''}: ${s.title}`}
            onClick={() => void goTo(i)}
          >
            {done.includes(s.id) ? '✓' : i + 1}
          </button>
        ))}
      </nav>
      <h3 ref={stepHeading}>
        Step {stepIndex + 1} of {lesson.steps.length}: {step.title}
      </h3>
      {step.text.split('\n\n').map((para) => (
        <p key={para}>{para}</p>
      ))}
      {step.predict ? (
        <div className="predict">
          <label>
            {step.predict.question}{' '}
            <input
              type="number"
              step="any"
              value={guessText}
              disabled={locked !== null}
              onChange={(e) => setGuessText(e.target.value)}
            />
          </label>{' '}
          <button
            type="button"
            disabled={locked !== null || guessText.trim() === '' || !Number.isFinite(Number(guessText))}
            onClick={() => setLocked(Number(guessText))}
          >
            Lock in
          </button>
          {locked !== null && !prediction ? (
            <p className="muted">Now run it: the answer appears when the step passes.</p>
          ) : null}
          {prediction ? <p className={prediction.right ? 'ok' : 'bad'}>{prediction.text}</p> : null}
        </div>
      ) : null}
      <h4>Goal</h4>
      <ul className="predicates" aria-live="polite">
        {step.goal.map((p, i) => {
          const r = result?.results[i];
          const state = r?.ok === true ? 'ok' : r?.ok === false ? 'bad' : 'wait';
          return (
            <li key={JSON.stringify(p)} className={state}>
              <span aria-hidden="true">{state === 'ok' ? '✓' : state === 'bad' ? '✗' : '○'}</span>{' '}
              <span className="visually-hidden">
                {state === 'ok' ? 'met' : state === 'bad' ? 'not met' : 'not yet'}:{' '}
              </span>
              {p.label}
              {r ? <span className="goal-read"> {r.detail}</span> : null}
            </li>
          );
        })}
      </ul>
      {result && !passed && result.meanwhile.length > 0 ? (
        <ul className="meanwhile">
          {result.meanwhile.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      {passed ? (
        <p className="ok" role="status">
          Step passed.{' '}
          {stepIndex + 1 < lesson.steps.length ? (
            <button type="button" onClick={() => void goTo(stepIndex + 1)}>
              Next step
            </button>
          ) : (
            'Lesson complete.'
          )}
        </p>
      ) : null}
      <div className="lesson-help">
        {(step.hints ?? []).slice(0, hintsShown).map((h) => (
          <p key={h} className="hint">
            Hint: {h}
          </p>
        ))}
        {hintsShown < (step.hints ?? []).length ? (
          <button type="button" onClick={() => setHintsShown((n) => n + 1)}>
            Hint
          </button>
        ) : null}{' '}
        <button type="button" aria-expanded={showSolution} onClick={() => setShowSolution((v) => !v)}>
          {showSolution ? 'Hide solution' : 'Show solution'}
        </button>
        {showSolution ? (
          <ol className="solution">
            {step.solution.map((cmd) => (
              <li key={cmd}>
                <button type="button" className="cmd-suggestion" onClick={() => void lab.submit(cmd)}>
                  <code>{cmd}</code>
                </button>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </section>
  );
}
