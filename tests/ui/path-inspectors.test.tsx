/**
 * The inspectors and the path view's words, rendered (happy-dom) from a real recorder on exp 4's
 * microburst (UDP -b 10G -P 8 on c7i.large): a dropped batch's inspector says where and why it
 * died and how RSS steered it; a ring's inspector gives its parameters with provenance marks; the
 * path view names the drops and says whether the frame is sampled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { PathRecorder } from '../../src/engine/view/path-recorder';
import { PASSAGE_DROPPED } from '../../src/engine/view/path-types';
import { parseScenario } from '../../src/scenario/schema';
import { NitroTables } from '../../src/ui/inspectors/nitro-tables';
import { PacketInspector } from '../../src/ui/inspectors/packet-inspector';
import { StageInspector } from '../../src/ui/inspectors/stage-inspector';
import { densityNote, PathView } from '../../src/ui/path/path-view';
import { mount as render } from './mount';

let lab: Lab;
let rec: PathRecorder;
beforeAll(() => {
  const s = parseScenario({ version: 1 });
  if (!s.ok) throw new Error(s.errors.join());
  lab = createLab(s.scenario);
  rec = new PathRecorder(lab).attach();
  new LabSession(lab).run('iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948 &');
  lab.runUntil(300_000_000);
});

describe('inspectors on exp 4', () => {
  it('the packet inspector says where and why a dropped batch died, and how RSS steered its flow', () => {
    const f = rec.frame(lab.nowNs - 200_000, lab.nowNs);
    const i = [...Array(f.n).keys()].find((k) => f.fate[k] === PASSAGE_DROPPED && f.id[k]! >= 0)!;
    const insp = rec.inspectPacket({ id: f.id[i]! })!;
    const el = render(<PacketInspector inspection={insp} onClose={() => {}} />);
    const text = el.textContent ?? '';
    expect(text).toContain('Dropped at Nitro card · egress on client: bw_out_allowance_exceeded');
    expect(text).toMatch(/udp 10\.0\.0\.10:\d+ → 10\.0\.0\.11:5201/);
    expect(text).toContain(`indirection entry ${insp.rss!.indirIndex} of 128`);
    expect(text).toContain(`RX queue ${insp.rss!.queue}`);
    expect(text).toContain(`vCPU ${insp.rss!.cpu}`);
    expect(el.querySelector('[aria-label="Close packet inspector"]')).not.toBeNull();
  });

  it('the stage inspector gives the RX ring its parameters with provenance marks', () => {
    const st = rec.inspectStage(1, 'rx_ring', 0)!;
    const el = render(<StageInspector inspection={st} onClose={() => {}} />);
    const marks = [...el.querySelectorAll('.mark')].map((m) => m.textContent);
    expect(marks).toContain('documented');
    expect(marks).toContain('assumed');
    expect(el.textContent).toContain('napiBudget');
    expect(el.textContent).toContain(`entered ${st.enteredPackets.toLocaleString('en-US')}`);
  });

  it('the Nitro tables list the flows as the slides do', () => {
    const el = render(<NitroTables tables={rec.nitroTables(0)!} />);
    const caps = [...el.querySelectorAll('caption')].map((c) => c.textContent);
    expect(caps).toEqual(['Mapping State', 'ConnTrack', 'Flow Cache']);
    expect(el.textContent).toContain('Established');
    expect(el.textContent).toContain('Complete');
  });

  it('the path view lists the drops with their reason and says when it samples', () => {
    const layout = rec.layout();
    const frame = rec.frame(lab.nowNs - 200_000, lab.nowNs, undefined, 5000, lab.nowNs - 1_000_000);
    const el = render(
      <PathView layout={layout} frame={frame} selection={null} onSelect={() => {}} colourBy="flow" />,
    );
    const drops = el.querySelector('[data-testid=path-drops]')!.textContent ?? '';
    expect(drops).toMatch(
      /[\d,]+ packets dropped on client · Nitro card · egress · bw_out_allowance_exceeded/,
    );
    const small = rec.frame(lab.nowNs - 200_000, lab.nowNs, undefined, 3);
    expect(small.sampled).toBe(true);
    expect(densityNote(small)).toContain(`drawing 1 in ${small.stride} batches`);
  });
});
