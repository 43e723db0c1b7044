/**
 * The page's worker against the CLI, in Node, by process CPU: `npx tsx tests/bench/worker-cpu.ts
 * SECONDS MODE` runs `iperf3 -c server -t SECONDS -l 9000 -P 2` on the default pair as `npm run lab`
 * runs it (MODE `cli`), as the interactive session alone runs it (`session`: its 1 ms polling grid),
 * or as the worker's service runs it when the page plays at the top speed (`page`: SimService.advance
 * with path detail off, 20 ms samples, 200,000-event requests); `page-nocap`, `page-nopath`,
 * `page-nochart` and `page-none` detach recorders. What it measured: docs/design.md, "Performance"
 * (the page against the CLI). One line of output: the mode, CPU ms, model events.
 */
import { createLab, runScript } from '../../src/engine/session/runner';
import { InteractiveSession } from '../../src/engine/session/interactive-session';
import { parseScenario } from '../../src/scenario/schema';
import type { ServiceRun } from '../../workers/service-run';
import { SimService } from '../../workers/sim-service';

const seconds = Number(process.argv[2] ?? 60);
const mode = process.argv[3] ?? 'page';
const line = `iperf3 -c server -t ${seconds} -l 9000 -P 2`;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function lab() {
  const r = parseScenario({ version: 2, seed: 1 });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return createLab(r.scenario);
}

let events = 0;
const c0 = cpuMs();
if (mode === 'cli') {
  const l = lab();
  runScript(l, [line]);
  events = l.sched.processed;
} else if (mode === 'session') {
  const s = new InteractiveSession(lab());
  s.submit(line);
  do events += s.advance(s.nowNs + 10e9, 200_000).events;
  while (s.foreground !== null);
} else if (mode.startsWith('page')) {
  const svc = new SimService({});
  svc.load({ version: 2, seed: 1 });
  svc.submit(line);
  const run = svc.live as ServiceRun;
  if (mode === 'page-nocap' || mode === 'page-none') run.detachObserver('capture');
  if (mode === 'page-nopath' || mode === 'page-none') run.detachObserver('path');
  if (mode === 'page-nochart' || mode === 'page-none') run.detachObserver('charts');
  const speed = 600e9; // the top speed, 10 min/s, a request per 1/60 s of wall time
  let now = 0;
  for (;;) {
    const f = svc.advance({
      toNs: now + speed / 60,
      maxEvents: 200_000,
      pathDetail: false,
      sampleStepNs: 20e6,
    });
    now = f.nowNs;
    events += f.events;
    if (f.foreground === null && f.backgroundCount === 0 && now > 1e9) break;
  }
} else
  throw new Error(
    `mode: cli, session, page, page-nocap, page-nopath, page-nochart or page-none, not ${mode}`,
  );
console.log(`${mode} cpu ${Math.round(cpuMs() - c0)} ms, ${events} events`);
process.exit(0);
