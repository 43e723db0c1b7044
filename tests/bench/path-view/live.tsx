/**
 * The path view and its inspectors on a real lab running in the page (engine imported directly:
 * a development and screenshot page, not the app; the app runs the engine in its worker).
 * Query: ?cmd=…&client=TYPE&server=TYPE&stepNs=N (simulated ns per animation frame)&stopNs=N
 * &windowNs=N (the frame's time window). Publishes `window.__live = { nowNs, stopped }`.
 */
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createLab, LabSession } from '../../../src/engine/session/runner';
import { PathRecorder } from '../../../src/engine/view/path-recorder';
import type { PathFrame } from '../../../src/protocol/path-frame';
import { parseScenario } from '../../../src/scenario/schema';
import { NitroTables } from '../../../src/ui/inspectors/nitro-tables';
import { PacketInspector } from '../../../src/ui/inspectors/packet-inspector';
import { StageInspector } from '../../../src/ui/inspectors/stage-inspector';
import { type ColourBy, PathView, type PathSelection } from '../../../src/ui/path/path-view';

const q = new URLSearchParams(location.search);
const cmd = q.get('cmd') ?? 'iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948';
const stepNs = Number(q.get('stepNs') ?? 20_000);
const stopNs = Number(q.get('stopNs') ?? 300_000_000);
const windowNs = Number(q.get('windowNs') ?? 20_000);
const s = parseScenario({
  version: 1,
  instances: [
    { name: 'client', type: q.get('client') ?? 'c7i.large' },
    { name: 'server', type: q.get('server') ?? 'c7i.large' },
  ],
});
if (!s.ok) throw new Error(s.errors.join());
const lab = createLab(s.scenario);
const rec = new PathRecorder(lab).attach();
new LabSession(lab).run(`${cmd} &`);
// jump to just before the stop time without animation (as the app's worker does for long stretches)
lab.runUntil(Math.max(0, stopNs - Number(q.get('animateNs') ?? 200_000)));

declare global {
  interface Window {
    __live?: { nowNs: number; stopped: boolean };
  }
}

function Live() {
  const layout = useMemo(() => rec.layout(), []);
  const [frame, setFrame] = useState<PathFrame | null>(null);
  const [sel, setSel] = useState<PathSelection>(null);
  const [colourBy, setColourBy] = useState<ColourBy>('flow');
  useEffect(() => {
    let raf = 0;
    let reuse: PathFrame | undefined;
    const tick = () => {
      const stopped = lab.nowNs >= stopNs;
      if (!stopped) lab.runUntil(Math.min(stopNs, lab.nowNs + stepNs));
      const f = rec.frame(
        lab.nowNs - windowNs,
        lab.nowNs,
        reuse,
        5000,
        lab.nowNs - Math.max(1_000_000, windowNs * 50),
      );
      reuse = undefined;
      setFrame({ ...f });
      window.__live = { nowNs: lab.nowNs, stopped };
      if (!stopped) raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, []);
  const packet =
    sel?.kind === 'packet'
      ? rec.inspectPacket(sel.id >= 0 ? { id: sel.id } : { flow: sel.flow, seq: sel.seq, count: sel.count })
      : null;
  const stage =
    sel?.kind === 'stage' ? rec.inspectStage(sel.host, layout.stages[sel.stage]!, sel.queue) : null;
  return (
    <>
      <main>
        <p data-testid="clock" role="status" aria-label="Simulated time">
          t = {((frame?.toNs ?? 0) / 1e6).toFixed(3)} ms · <code>{cmd}</code>
        </p>
        <PathView
          layout={layout}
          frame={frame}
          selection={sel}
          onSelect={setSel}
          colourBy={colourBy}
          onColourByChange={setColourBy}
        />
        <NitroTables tables={rec.nitroTables(0)!} />
      </main>
      <div>
        {sel?.kind === 'packet' && <PacketInspector inspection={packet} onClose={() => setSel(null)} />}
        {stage && <StageInspector inspection={stage} onClose={() => setSel(null)} />}
      </div>
    </>
  );
}

createRoot(document.getElementById('root')!).render(<Live />);
