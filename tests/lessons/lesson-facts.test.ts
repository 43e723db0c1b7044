/**
 * Fidelity of the lessons' teaching text: a number a lesson states about AWS must be the catalog's
 * (which carries its source, docs/domain-facts.md), and a figure AWS does not publish must be named as
 * the lab's assumption. Each test below pins one statement that was once typed by hand and wrong.
 */
import { describe, expect, it } from 'vitest';
import { getInstanceType } from '../../src/catalog';
import { MODEL_PARAMS } from '../../src/engine/model/params';
import { LESSON_DOCUMENTS, LESSONS } from '../../src/lessons';
import type { LessonInput } from '../../src/lessons/schema';
import { PRESETS } from '../../src/scenario/presets';
import { LessonLab } from './harness';

function lesson(id: string): LessonInput {
  const l = LESSON_DOCUMENTS.find((d) => d.id === id);
  if (!l) throw new Error(`no lesson ${id}`);
  return l;
}

function step(l: LessonInput, id: string) {
  const s = l.steps.find((x) => x.id === id);
  if (!s) throw new Error(`no step ${id} in ${l.id}`);
  return s;
}

/** Every string a learner reads in a lesson: summary, step texts, hints, predictions, mistakes. */
function allText(l: LessonInput): string {
  const parts: string[] = [l.summary];
  for (const s of l.steps) {
    parts.push(s.text, ...(s.hints ?? []));
    if (s.predict) parts.push(s.predict.question, s.predict.reason);
    for (const m of s.mistakes ?? []) parts.push(m.why);
  }
  return parts.join('\n');
}

describe('lesson facts', () => {
  it('conntrack: the UDP stream timeout is the AWS default (180 s, AWS-CT/MOTO), not the slide’s 60 s', () => {
    const t = getInstanceType('c7i.large')!.conntrackTimeouts;
    expect([t.tcpEstablishedSeconds.value, t.udpStreamSeconds.value, t.udpSeconds.value]).toEqual([
      432_000, 180, 30,
    ]);
    const reason = step(lesson('conntrack'), 'udp-timeout').predict!.reason;
    expect(reason).toContain(
      `${t.udpSeconds.value} s by default, ${t.udpStreamSeconds.value} s for a stream`,
    );
    expect(allText(lesson('conntrack'))).not.toMatch(/60 s for a stream/);
  });

  it('conntrack: a closed TCP connection gives its entry back (AWS What’s New 2023-11-20); how soon is the lab’s assumption', () => {
    const linger = MODEL_PARAMS.conntrackClosedLingerNs;
    expect(linger.provenance).toBe('assumed');
    const fill = step(lesson('conntrack'), 'fill');
    expect(fill.text).toContain('does not say how soon');
    expect(fill.text).toContain(`${linger.value / 1e9} s after the connection's last packet`);
    expect(fill.predict!.reason).toContain("the lab's assumption");
    // the model once kept closed connections for the 5-day idle timeout; AWS removes them
    expect(allText(lesson('conntrack'))).not.toMatch(/even after (ab is done with it|it closes)/);
    expect(fill.goal.map((g) => [g.name, g.op, g.value])).toContainEqual([
      'conntrack_allowance_available',
      '==',
      64,
    ]);
  });

  it('burst: the c7i.large burst duration is named as the lab’s assumption (AWS-BW publishes only 5 to 60 min)', () => {
    const burst = getInstanceType('c7i.large')!.burstCreditSeconds!;
    expect(burst.provenance).toBe('assumed');
    const text = step(lesson('burst-baseline'), 'run-out').text;
    expect(text).toContain(`this lab assumes ${burst.value / 60} minutes`);
    expect(text).not.toMatch(/A real c7i\.large bursts/);
    const exp2 = PRESETS.find((p) => p.id === 'exp2')!.summary;
    expect(exp2).toContain(`≈${burst.value} s on a c7i.large in this lab: an assumption`);
  });

  it('microbursts: the RX ring maximum is not stated as an AWS fact (ENA-README: up to 16K, per type)', () => {
    const spec = getInstanceType('c7i.large')!;
    expect(spec.rxRingDefault.provenance).toBe('documented');
    const text = step(lesson('microbursts'), 'rx-ring').text;
    expect(text).toContain(`default to ${spec.rxRingDefault.value} descriptors`);
    expect(spec.rxRingMax.provenance).toBe('assumed');
    expect(text).toContain(`this lab assumes ${spec.rxRingMax.value}`);
    expect(text).not.toMatch(/up to 16384 on Nitro/);
  });

  it('packet journey: the RSS hash input for TCP/UDP is the 4-tuple, without the protocol (ENA-SRC default hash control)', () => {
    const text = allText(lesson('packet-journey'));
    expect(text).not.toMatch(/\[source IP, destination IP, protocol, source port, destination port\]/);
    expect(text).toContain('source IP, destination IP, source port and destination port');
    // the command the text names prints those four fields in the lesson's lab
    const lab = new LessonLab(LESSONS.find((l) => l.id === 'packet-journey')!);
    const out = lab.run('ethtool -n eth0 rx-flow-hash tcp4')[0]!.output;
    expect(out.trim().split('\n').slice(1)).toEqual([
      'IP SA',
      'IP DA',
      'L4 bytes 0 & 1 [TCP/UDP src port]',
      'L4 bytes 2 & 3 [TCP/UDP dst port]',
    ]);
  });

  it('pps limits: two flows are not promised two queues (RSS hashes each flow; two can collide)', () => {
    expect(allText(lesson('pps-limits'))).not.toMatch(/Each flow has its own queue/);
    expect(allText(lesson('packet-journey'))).toContain('Two flows may hash to the same queue');
  });

  it('action plan: the PPS allowance of a type is the lab’s assumption (AWS-ENAPERF: not published)', () => {
    for (const t of ['c6i.8xlarge', 'c6in.4xlarge'])
      expect(getInstanceType(t)!.ppsAllowance.provenance).toBe('assumed');
    const hints = step(lesson('action-plan'), 'small-packets').hints!.join('\n');
    expect(hints).toContain('This lab assumes they grow with the type');
    // the model does give the "n" type the higher allowance the hint promises
    const [b, c] = ['c6i.8xlarge', 'c6in.4xlarge'].map((t) => getInstanceType(t)!.ppsAllowance.value);
    expect(c!).toBeGreaterThan(2 * b!);
  });
});
