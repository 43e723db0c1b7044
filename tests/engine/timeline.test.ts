/**
 * The worker's timeline: seek (checkpoint + replay) gives byte for byte the state of a run driven
 * straight to the target; seeking back keeps the later log, a command typed then forks it; single
 * steps stop exactly after the next event or the next packet at a stage; "run until" stops on a
 * chosen counter, the first drop and the time.
 */
import { describe, expect, it } from 'vitest';
import { PROBE_STAGES } from '../../src/engine/model/probe';
import { InteractiveSession, type SessionLogEntry } from '../../src/engine/session/interactive-session';
import { STEP_STAGES } from '../../src/lib/step-stages';
import { createLab } from '../../src/engine/session/runner';
import { SEEK_DETAIL_WINDOW_NS } from '../../src/engine/session/timeline';
import { PathRecorder } from '../../src/engine/view/path-recorder';
import type { Frame } from '../../src/protocol/sim-api';
import { parseScenario } from '../../src/scenario/schema';
import { PLAY_BUILD_RATIO, SimService } from '../../workers/sim-service';

const DOC = {
  version: 2,
  seed: 1,
  placement: 'cluster',
  instances: [
    { name: 'client', type: 'c7i.large' },
    { name: 'server', type: 'c7i.large' },
  ],
};

function scenario() {
  const r = parseScenario(DOC);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** The reference: a fresh lab, the log applied at its instants, detail restarted a window before t. */
function straight(log: readonly SessionLogEntry[], t: number) {
  const lab = createLab(scenario());
  const path = new PathRecorder(lab).attach();
  path.setDetail(false);
  const s = new InteractiveSession(lab);
  const detailFrom = Math.max(0, t - SEEK_DETAIL_WINDOW_NS);
  let restarted = false;
  const to = (ns: number) => {
    if (!restarted && ns > detailFrom) {
      s.advance(detailFrom);
      path.restartDetail();
      restarted = true;
    }
    s.advance(ns);
  };
  for (const e of log) {
    if (e.atNs > t) break;
    to(e.atNs);
    if (e.kind === 'line') s.submit(e.line);
    else s.interrupt();
  }
  to(t);
  if (!restarted) path.restartDetail();
  return { session: s, path };
}

/** Everything a user can see of a run at its instant, as plain data. */
function view(v: { session: InteractiveSession; path: PathRecorder }) {
  const lab = v.session.lab;
  const now = lab.nowNs;
  // counters first: reading them lands the RX rings' pending DMA (the probe reports it then), as
  // the worker's frames and the lessons' observer do before the path frame
  const ethtool = [...lab.instances.values()].map((i) => i.host.eth0.statistics());
  const f = v.path.frame(Math.max(0, now - 1_000_000), now, undefined, 5000);
  const { revision: _rev, ...frame } = f; // the layout revision counts layout() calls, not the model
  return {
    now,
    events: lab.sched.processed,
    transcript: v.session.transcript.map((c) => `${c.atNs} ${c.stream} ${c.text}`).join(''),
    ethtool,
    frame: JSON.stringify(frame, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x)),
  };
}

function play(svc: SimService, toNs: number, frameNs = 16e6, detail = true): Frame {
  let f: Frame | null = null;
  while ((svc.live?.session.nowNs ?? 0) < toNs) {
    const now = svc.live!.session.nowNs;
    f = svc.advance({ toNs: Math.min(toNs, now + frameNs), maxEvents: 5_000_000, pathDetail: detail });
  }
  return f!;
}

describe('timeline: seek', () => {
  it('seek back restores, byte for byte, what a straight run to that instant shows (from a checkpoint)', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 } });
    svc.load(DOC);
    svc.advance({ toNs: 3e6, maxEvents: 1e6 });
    svc.submit('iperf3 -c server -t 2');
    play(svc, 0.8e9, 16e6, true);
    play(svc, 2.3e9, 100e6, false); // a fast-forward: the recorder counted only
    svc.submit('ethtool -S eth0');
    play(svc, 2.5e9);
    const log = svc.commandLog();
    expect(log.map((e) => e.kind === 'line' && e.line)).toEqual(['iperf3 -c server -t 2', 'ethtool -S eth0']);
    // background work: checkpoints between 0 and 2.5 s
    while (svc.buildCheckpoints(1e6));
    const stats0 = svc.timelineStats()!;
    expect(stats0.checkpoints.length).toBeGreaterThan(0);

    for (const t of [1_234_567_891, 0.6e9, 2.4e9, 1_000]) {
      const r = svc.seek(t);
      expect(r.ok && r.nowNs).toBe(t);
      expect(r.ok && r.furthestNs).toBe(2.5e9);
      const a = view(svc.live!);
      const b = view(straight(log, t));
      for (const k of Object.keys(a) as (keyof typeof a)[]) expect([t, k, a[k]]).toEqual([t, k, b[k]]);
    }
    const st = svc.timelineStats()!;
    expect(st.fromCheckpoint).toBeGreaterThan(0);
    // the log past the instant is kept: seeking forward replays it
    expect(svc.commandLog()).toEqual(log);
    svc.seek(2.5e9);
    expect(view(svc.live!)).toEqual(view(straight(log, 2.5e9)));
    // what was printed between 1 µs and 2.5 s comes with the next frame (the client cut it at 1 µs)
    const f = svc.advance({ toNs: 2.5e9, maxEvents: 1 });
    expect(f.terminal.map((c) => c.text).join('')).toBe(
      svc
        .live!.session.transcript.filter((c) => c.atNs > 1_000)
        .map((c) => c.text)
        .join(''),
    );
    expect(f.terminal.map((c) => c.text).join('')).toContain('bw_out_allowance_exceeded');
    expect(svc.live!.session.transcript.some((c) => c.text.includes('bw_out_allowance_exceeded'))).toBe(true);
  });

  it('frames that run out of their event budget (the pump lagging behind the asked speed) build no checkpoints: frames come first', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 } });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 2');
    // each frame asks for 50 ms (about 1,300 events of this run) but may process only 200: it never
    // reaches its instant
    let lagging = 0;
    for (let i = 0; i < 200; i++) {
      const now = svc.live!.session.nowNs;
      const f = svc.advance({ toNs: now + 50e6, maxEvents: 200, pathDetail: false });
      if (f.nowNs < now + 50e6) lagging++;
    }
    expect(lagging).toBe(200);
    expect(svc.timelineStats()!.buildEvents).toBe(0);
    // the same service keeping up (frames that reach their instant) builds again
    const t = svc.live!.session.nowNs;
    while (svc.live!.session.nowNs < t + 0.5e9) {
      const now = svc.live!.session.nowNs;
      svc.advance({ toNs: now + 50e6, maxEvents: 5_000_000, pathDetail: false });
    }
    expect(svc.timelineStats()!.buildEvents).toBeGreaterThan(0);
  });

  it('the frame that ends the foreground command builds no checkpoint (its last lines are not held up); the frames before it do', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 } });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    let builtBefore = 0;
    for (;;) {
      const before = svc.timelineStats()!.buildEvents;
      const now = svc.live!.session.nowNs;
      const f = svc.advance({ toNs: now + 50e6, maxEvents: 5_000_000, pathDetail: false });
      const built = svc.timelineStats()!.buildEvents - before;
      if (f.foreground === null) {
        expect(f.reached).toBe(true);
        expect(built).toBe(0);
        break;
      }
      builtBefore += built;
    }
    expect(builtBefore).toBeGreaterThan(0);
  });

  it('checkpoints are built while playing (never idle): seeking back into the played stretch starts from one, byte for byte the run as it passed there', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 } });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 2');
    let live = 0;
    const frames = (to: number) => {
      while (svc.live!.session.nowNs < to) {
        const now = svc.live!.session.nowNs;
        live += svc.advance({
          toNs: Math.min(to, now + 50e6),
          maxEvents: 5_000_000,
          pathDetail: false,
        }).events;
      }
    };
    frames(1.2e9);
    // what the user saw at 1.2 s as it played (the charts' engine series included)
    const seen = (v: { session: InteractiveSession; path: PathRecorder }) => {
      const { frame: _f, ...rest } = view(v);
      const c = svc.chartSeries({ fromNs: 0, toNs: 1.2e9, stepNs: 10e6 });
      return {
        ...rest,
        charts: JSON.stringify(c, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x)),
      };
    };
    const asPlayed = seen(svc.live!);
    frames(2.5e9);
    const st = svc.timelineStats()!;
    // no idle time and no buildCheckpoints call: these came from the frames
    expect(st.built).toBeGreaterThan(0);
    expect(st.checkpoints.some((t) => t < 1.2e9 - SEEK_DETAIL_WINDOW_NS)).toBe(true);
    // the cost is bounded: at most PLAY_BUILD_RATIO events per live event (plus one chunk carried)
    expect(st.buildEvents).toBeLessThanOrEqual(PLAY_BUILD_RATIO * live + 20_000);
    const before = st.seekEvents;
    svc.seek(1.2e9);
    const after = svc.timelineStats()!;
    expect(after.lastBaseNs).toBeGreaterThan(0);
    expect(after.seekEvents - before).toBeLessThan(asPlayed.events);
    expect(seen(svc.live!)).toEqual(asPlayed);
    // and the path view too, as a straight run's
    expect(view(svc.live!)).toEqual(view(straight(svc.commandLog(), 1.2e9)));
    // a service that builds only while idle replays from 0
    const idle = new SimService({ timeline: { minGapEvents: 5_000 }, playBuildRatio: 0 });
    idle.load(DOC);
    idle.submit('iperf3 -c server -t 2');
    play(idle, 2.5e9, 50e6, false);
    idle.seek(1.2e9);
    expect(idle.timelineStats()!.lastBaseNs).toBe(0);
  });

  it('with all checkpoints built, a run that plays on gets them moved forward (the thinnest goes on to the new gap), not kept where it started', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000, maxCheckpoints: 3 } });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 6');
    for (let t = 50e6; t <= 6e9; t += 50e6) svc.advance({ toNs: t, maxEvents: 1e9, pathDetail: false });
    const st = svc.timelineStats()!;
    expect(st.checkpoints.length).toBeLessThanOrEqual(3);
    // more were built than are kept, and the latest is well past where the first three landed (0.57 s)
    expect(st.built).toBeGreaterThan(3);
    expect(Math.max(...st.checkpoints)).toBeGreaterThan(1e9);
    // each still restores exactly
    const log = svc.commandLog();
    const t = Math.max(...st.checkpoints) + SEEK_DETAIL_WINDOW_NS + 1_000;
    svc.seek(t);
    expect(svc.timelineStats()!.lastBaseNs).toBeGreaterThan(1e9);
    expect(view(svc.live!)).toEqual(view(straight(log, t)));
  });

  it('a seek in slices (seekStart, seekStep) lands byte for byte where a one-shot seek does; Cancel puts back the run the lab was at, exactly', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 }, playBuildRatio: 0 });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 2');
    play(svc, 1.5e9, 100e6, false);
    svc.submit('ethtool -S eth0');
    play(svc, 1.6e9, 16e6, true);
    const log = svc.commandLog();
    const here = view(svc.live!);

    // cancelled halfway: the lab is as it was (the same run, untouched), the log whole
    let r = svc.seek(1.2e9, 5_000);
    expect(r.ok && r.seeking).toEqual({ fromNs: 0, toNs: 1.2e9, atNs: expect.any(Number) });
    expect(r.ok && r.nowNs).toBe(1.6e9);
    const at1 = r.ok ? r.seeking!.atNs : 0;
    r = svc.seekContinue(5_000);
    const at2 = r.ok ? r.seeking!.atNs : 0;
    expect(at2).toBeGreaterThan(at1);
    expect(at2).toBeLessThan(1.2e9);
    r = svc.seekCancel();
    expect(r.ok && r.seeking).toBeUndefined();
    expect(r.ok && r.nowNs).toBe(1.6e9);
    expect(view(svc.live!)).toEqual(here);
    expect(svc.commandLog()).toEqual(log);
    // the partial replay was kept as a checkpoint where it got to: the next seek starts there
    expect(svc.timelineStats()!.checkpoints).toContain(at2);
    r = svc.seek(1.2e9, 5_000);
    expect(r.ok && r.seeking!.fromNs).toBe(at2);
    let slices = 1;
    while (r.ok && r.seeking) {
      r = svc.seekContinue(5_000);
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    expect(r.ok && r.nowNs).toBe(1.2e9);
    expect(view(svc.live!)).toEqual(view(straight(log, 1.2e9)));
    // and playing on from there gives what the first pass gave
    play(svc, 1.6e9, 16e6, true);
    expect(view(svc.live!).transcript).toBe(here.transcript);
    expect(view(svc.live!).ethtool).toEqual(here.ethtool);

    // playing (or typing) while a seek is under way calls it off first: the lab plays on from where it was
    svc.seek(0.5e9, 20_000);
    const f = svc.advance({ toNs: 1.7e9, maxEvents: 5_000_000 });
    expect(f.nowNs).toBe(1.7e9);
    expect(svc.seekContinue(20_000).ok && svc.timelineStats()!.furthestNs).toBe(1.7e9);
  });

  it('a seek from a checkpoint replays fewer events than one from t = 0', () => {
    const svc = new SimService({ timeline: { minGapEvents: 5_000 }, playBuildRatio: 0 });
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 2');
    play(svc, 2e9, 200e6, false);
    const seekCost = (t: number) => {
      const before = svc.timelineStats()!.seekEvents;
      svc.seek(t);
      return svc.timelineStats()!.seekEvents - before;
    };
    svc.seek(0);
    const fromZero = seekCost(1.5e9);
    svc.seek(0);
    while (svc.buildCheckpoints(1e6));
    const withCheckpoints = seekCost(1.5e9);
    expect(withCheckpoints).toBeLessThan(fromZero / 2);
  });

  it('scrubbing back and forth between two instants: after the first visits, no replay at all', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    play(svc, 1.5e9, 100e6, false);
    const log = svc.commandLog();
    svc.seek(1e9);
    svc.seek(0.7e9);
    const before = svc.timelineStats()!.seekEvents;
    for (const t of [1e9, 0.7e9, 1e9, 0.7e9]) {
      svc.seek(t);
      expect(svc.timelineStats()!.seekEvents).toBe(before);
      expect(view(svc.live!)).toEqual(view(straight(log, t)));
    }
    // moved on, it is no longer the instant a seek left: going back there replays
    svc.advance({ toNs: 0.8e9, maxEvents: 1e7 });
    svc.seek(1e9);
    svc.seek(0.8e9);
    expect(svc.timelineStats()!.seekEvents).toBeGreaterThan(before);
    expect(view(svc.live!)).toEqual(view(straight(log, 0.8e9)));
  });

  it('a command typed after a seek back forks the timeline: later entries and checkpoints go', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('sleep 0.5');
    play(svc, 0.6e9);
    svc.submit('hostname');
    play(svc, 1e9);
    svc.seek(0.55e9);
    expect(svc.commandLog()).toHaveLength(2);
    expect(svc.submit('uptime')).toBe(true);
    const log = svc.commandLog();
    expect(log.map((e) => e.kind === 'line' && e.line)).toEqual(['sleep 0.5', 'uptime']);
    expect(svc.timelineStats()!.furthestNs).toBe(0.55e9);
    expect(svc.timelineStats()!.checkpoints.every((t) => t <= 0.55e9)).toBe(true);
    const f = play(svc, 0.7e9);
    expect(f.furthestNs).toBe(0.7e9);
    expect(view(svc.live!)).toEqual(view(straight(log, 0.7e9)));
  });
});

describe('timeline: single step', () => {
  it('offers the probe stages, in path order', () => {
    expect(STEP_STAGES.map((s) => s.stage)).toEqual([...PROBE_STAGES]);
  });

  it('"next event" processes exactly one model event and stops at its instant', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    play(svc, 5e6);
    const lab = svc.live!.session.lab;
    for (let i = 0; i < 20; i++) {
      const next = lab.sched.peekTime();
      const before = lab.sched.processed;
      const f = svc.advance({ toNs: Number.POSITIVE_INFINITY, maxEvents: 1, step: { kind: 'event' } });
      expect(lab.sched.processed - before).toBe(1);
      expect(f.nowNs).toBe(next);
      expect(f.stepped?.found).toBe(true);
      expect(f.stepped?.summary).toBeTruthy();
    }
  });

  it('"next packet at a stage" stops right after the event in which a packet enters it; the inspector finds it', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    play(svc, 5e6);
    const f = svc.advance({
      toNs: 1e9,
      maxEvents: 1e6,
      step: { kind: 'packet', stage: 'rx_ring', host: 'server' },
    });
    const p = f.stepped!.packet!;
    expect(f.stepped!.found).toBe(true);
    expect(p).toMatchObject({ stage: 'rx_ring', hostName: 'server', what: 'entered' });
    // the ring reports the DMA's landing instant, at or before the event that learns of it
    expect(p.atNs).toBeLessThanOrEqual(f.nowNs);
    expect(f.nowNs - p.atNs).toBeLessThan(100_000);
    expect(f.stepped!.summary).toMatch(/entered RX ring.* on server/);
    const insp = svc.inspectPacket({ flow: p.flow, seq: p.seq, count: p.count });
    expect(insp).not.toBeNull();
    // the same event again is not "next": a second step moves on
    const g = svc.advance({ toNs: 1e9, maxEvents: 1e6, step: { kind: 'packet', stage: 'rx_ring' } });
    expect(g.nowNs).toBeGreaterThanOrEqual(f.nowNs);
    expect(g.stepped!.packet!.seq === p.seq && g.stepped!.packet!.flow === p.flow).toBe(false);
    // stepping does not change the model: the state equals a straight run to the same instant
    expect(view(svc.live!).transcript).toBe(view(straight(svc.commandLog(), g.nowNs)).transcript);
    expect(view(svc.live!).ethtool).toEqual(view(straight(svc.commandLog(), g.nowNs)).ethtool);
  });

  it('a receiving card is reached when the batch lands (one fabric delay after the sender released it)', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    const f = svc.advance({ toNs: 1e9, maxEvents: 1e6, step: { kind: 'packet', stage: 'nitro_ingress' } });
    const p = f.stepped!.packet!;
    expect(p.what).toBe('entered');
    expect(f.nowNs).toBe(p.atNs);
    expect(f.nowNs).toBeGreaterThan(0);
  });

  it('in an idle lab says no packet is coming and leaves the clock where it is; the empty window shows no drop or flow of the last run', () => {
    const svc = new SimService();
    svc.load(DOC);
    // a run with drops at the card, played to its end and on until nothing is scheduled
    svc.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -n 40M');
    let last = play(svc, 10e6, 1e6);
    expect(last.path.dropTotal).toBeGreaterThan(0);
    last = play(svc, 2e9, 500e6);
    expect(last.foreground).toBeNull();
    const at = last.nowNs;
    const f = svc.advance({
      toNs: at + 10e9,
      maxEvents: 1e6,
      step: { kind: 'packet', stage: 'nitro_egress' },
    });
    expect(f.stepped!.found).toBe(false);
    expect(f.stepped!.summary).toBe(
      `No packet is coming to Nitro egress: nothing is scheduled in the next 10 s (the lab is idle; start a command first). The clock stays at ${(at / 1e9).toFixed(6)} s`,
    );
    expect(f.nowNs).toBe(at);
    // the picture of that (empty) window: no drop marks, drop list or flow legend of the run before
    expect(f.path.n).toBe(0);
    expect(f.path.drops).toBe(0);
    expect(f.path.dropTotal).toBe(0);
    expect(f.path.flows).toBe(0);
    const e = svc.advance({ toNs: at + 10e9, maxEvents: 1, step: { kind: 'event' } });
    expect(e.stepped!.summary).toMatch(/idle/);
  });

  it('with only timers left (no packet for the stage), stops at the last of them, not at the horizon', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -n 40M');
    const last = play(svc, 20e6, 1e6);
    expect(last.foreground).toBeNull();
    const lab = svc.live!.session.lab;
    // what is left: a timer (no packet) about a second later
    const timer = lab.sched.peekTime();
    expect(timer).toBeGreaterThan(0.5e9);
    expect(timer).toBeLessThan(5e9);
    const f = svc.advance({ toNs: 20e6 + 10e9, maxEvents: 1e6, step: { kind: 'packet', stage: 'qdisc' } });
    expect(f.stepped!.found).toBe(false);
    expect(f.nowNs).toBe(timer);
    expect(f.stepped!.summary).toBe(
      `No packet is coming to qdisc in the next 10 s: 1 model event (timers, no packet there); the clock is at the last of them, ${(timer / 1e9).toFixed(6)} s`,
    );
  });
});

describe('timeline: run until', () => {
  it('stops when the chosen counter of the chosen instance moves', () => {
    const svc = new SimService();
    svc.load(DOC);
    play(svc, 20e6);
    svc.submit('server: ping -c 3 client');
    const f = svc.advance({
      toNs: 5e9,
      maxEvents: 5e6,
      until: { kind: 'counter-moves', host: 'client', counter: 'queue_0_tx_cnt' },
    });
    expect(f.stoppedBy).toBe('counter-moves');
    const value = (fr: Frame, host: string, name: string) => {
      const c = fr.counters.find((x) => x.host === host)!;
      return c.values[c.names.indexOf(name)];
    };
    // the client answers the first echo request within the 1 ms slice the check runs on
    expect(value(f, 'client', 'queue_0_tx_cnt')).toBeGreaterThan(0);
    expect(f.nowNs).toBeLessThan(40e6);
  });

  it('first drop stops right after the event that dropped the packet', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    const f = svc.advance({ toNs: 2e9, maxEvents: 5e7, until: { kind: 'first-drop' } });
    expect(f.stoppedBy).toBe('first-drop');
    const drops = f.labEvents.filter((e) => e.kind === 'drop');
    expect(drops.length).toBeGreaterThan(0);
    expect(drops[0]!.atNs).toBe(f.nowNs);
  });

  it('a request sent ahead with unlessStopped does nothing after a stop, or when nothing runs; otherwise it goes on', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    const until = { kind: 'first-drop' } as const;
    // the budget ran out before the first drop: the one sent ahead goes on
    const part = svc.advance({ toNs: 2e9, maxEvents: 10, until });
    expect(part.stoppedBy).toBeNull();
    expect(svc.advance({ toNs: 2e9, maxEvents: 10, until, unlessStopped: true }).events).toBe(10);
    const f = svc.advance({ toNs: 2e9, maxEvents: 5e7, until });
    expect(f.stoppedBy).toBe('first-drop');
    // stopped at its condition: the one sent ahead does nothing
    const ahead = svc.advance({ toNs: 4e9, maxEvents: 5e7, until, unlessStopped: true });
    expect([ahead.events, ahead.nowNs, ahead.stoppedBy]).toEqual([0, f.nowNs, null]);
    // asked again (a new run until): on to the next drop
    const next = svc.advance({ toNs: 4e9, maxEvents: 5e7, until });
    expect(next.stoppedBy).toBe('first-drop');
    expect(next.nowNs).toBeGreaterThan(f.nowNs);
    // nothing runs: nothing moves
    const quiet = new SimService();
    quiet.load(DOC);
    const idle = quiet.advance({ toNs: 1e9, maxEvents: 100, until, unlessStopped: true });
    expect([idle.events, idle.nowNs]).toEqual([0, 0]);
  });

  it('a time stops exactly at it', () => {
    const svc = new SimService();
    svc.load(DOC);
    svc.submit('iperf3 -c server -t 1');
    const f = svc.advance({ toNs: 2e9, maxEvents: 5e7, until: { kind: 'time', atNs: 123_456_789 } });
    expect(f.stoppedBy).toBe('time');
    expect(f.nowNs).toBe(123_456_789);
  });
});
