/**
 * Every lesson is valid data (schema + scenario); drafts are listed, and each draft still needs a
 * command the lab does not have (when its commands land, this fails: promote the draft).
 */
import { describe, expect, it } from 'vitest';
import { LESSON_DOCUMENTS, LESSONS } from '../../src/lessons';
import { CONNTRACK_LESSON_SG, conntrackScenario } from '../../src/lessons/catalog/conntrack';
import { type Lesson, parseLesson, type Step } from '../../src/lessons/schema';
import { parseScenario } from '../../src/scenario/schema';
import { LessonLab } from './harness';

describe('lesson data', () => {
  it('every lesson parses, ids are unique, and the agenda order is kept', () => {
    for (const d of LESSON_DOCUMENTS) {
      const r = parseLesson(d);
      expect(r.ok ? [] : r.errors, String(d.id)).toEqual([]);
    }
    const ids = LESSONS.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe('packet-journey');
    expect(ids.at(-1)).toBe('action-plan');
  });

  it("the conntrack lesson's security group ID is its scenario's default group", () => {
    const r = parseScenario(conntrackScenario);
    expect(r.ok && r.scenario.vpc.SecurityGroups.find((g) => g.GroupName === 'default')?.GroupId).toBe(
      CONNTRACK_LESSON_SG,
    );
  });

  it('lists the drafts (commands not in the lab yet) by name: none today', () => {
    expect(LESSONS.filter((l) => l.draft).map((l) => l.id)).toEqual([]);
  });

  it('a draft is refused as finished: its solution must need a command the lab refuses', () => {
    // a draft made of the tunnels lesson with a command the lab does not have
    const base = LESSONS.find((l) => l.id === 'tunnels')!;
    const draft = { ...base, draft: { reason: 'x', needs: ['ip xfrm'] } };
    const lab = new LessonLab(draft);
    const failed = lab.runAll(['ip xfrm state list']).filter((r) => r.exitCode !== 0);
    expect(failed.length).toBeGreaterThan(0);
    for (const l of LESSONS.filter((x) => x.draft)) {
      const lb = new LessonLab(l);
      const f = l.steps
        .flatMap((s) => s.solution)
        .flatMap((line) => lb.run(line))
        .filter((r) => r.exitCode !== 0);
      expect(f.length, l.id).toBeGreaterThan(0);
    }
  });

  it('every goal reads as a sentence, and what a learner sees before a run names no regular expression', () => {
    const REGEX = /\\[sSbdw]|\/\^|\$\/|\(\?|\.\*/;
    for (const l of LESSON_DOCUMENTS)
      for (const st of l.steps) {
        const where = `${l.id}/${st.id}`;
        for (const g of st.goal) {
          expect(g.label, where).toMatch(/^\S.*[.!?]$/);
          expect(g.label, where).not.toMatch(REGEX);
          if (g.command !== undefined) expect(g.commandText, where).not.toMatch(REGEX);
        }
        // the step's verdict after an unrelated command: every "not yet" names commands as a person would
        const lab = new LessonLab(l as Lesson);
        lab.begin();
        lab.run('ethtool -S eth0');
        const r = lab.check(st as Step);
        expect(r.explanation, where).not.toMatch(REGEX);
      }
  });

  it('a goal without a sentence, or a command regex without its commandText, is refused', () => {
    const lesson = (goal: unknown) => ({
      id: 'x',
      title: 'x',
      talk: 'x',
      summary: 'x',
      scenario: { version: 2 },
      steps: [{ id: 's', title: 't', text: 't', goal: [goal], solution: ['true'] }],
    });
    const errors = (g: unknown) => {
      const r = parseLesson(lesson(g));
      return r.ok ? [] : r.errors;
    };
    expect(errors({ metric: 'iperf3.streams', op: '==', value: 1, label: 'one flow' })[0]).toMatch(
      /^steps\[0\]\.goal\[0\]\.label: a sentence/,
    );
    expect(errors({ metric: 'commands', command: '^x', op: '>', value: 0, label: 'x ran.' })).toContain(
      'steps[0].goal[0].commandText: needs `commandText`: the command `command` matches, as the learner reads it (e.g. "iperf3")',
    );
  });

  it('rejects a malformed lesson with the field named', () => {
    const bad = parseLesson({
      id: 'x',
      title: 'x',
      talk: 'x',
      summary: 'x',
      scenario: { version: 2 },
      steps: [
        {
          id: 's',
          title: 't',
          text: 't',
          goal: [{ metric: 'counter', op: '>', value: 0, label: 'A counter rose.' }],
          solution: ['true'],
        },
      ],
    });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.errors).toContain("steps[0].goal[0].name: counter needs the counter's name");
    const badScenario = parseLesson({
      id: 'x',
      title: 'x',
      talk: 'x',
      summary: 'x',
      scenario: { version: 2, instances: [{ name: 'client', type: 'c7i.larg' }] },
      steps: [
        {
          id: 's',
          title: 't',
          text: 't',
          goal: [{ metric: 'commands', command: '^x', commandText: 'x', op: '>', value: 0, label: 'x ran.' }],
          solution: ['true'],
        },
      ],
    });
    expect(badScenario.ok ? [] : badScenario.errors[0]).toMatch(
      /^scenario\.instances\[0\]\.type: unknown instance type/,
    );
    expect(parseLesson({ ...LESSON_DOCUMENTS[0], steps: [] }).ok).toBe(false);
  });
});
