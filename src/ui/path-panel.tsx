/**
 * The path region: the path view (src/ui/path, drawn from the worker's path frames) and, beside
 * it, the inspector of what is selected (a packet, or a stage with the Nitro tables). Connects the
 * presentational components to the store and the lab controller.
 */
import { NitroTables } from './inspectors/nitro-tables';
import { PacketInspector } from './inspectors/packet-inspector';
import { StageInspector } from './inspectors/stage-inspector';
import { PathView } from './path/path-view';
import { useApp, useAppStore, useLab } from './context';

export function PathPanel() {
  const store = useAppStore();
  const lab = useLab();
  const layout = useApp((s) => s.pathLayout);
  useApp((s) => s.results.seriesVersion); // a new path frame arrived
  const selection = useApp((s) => s.selection.path);
  const colourBy = useApp((s) => s.view.colourBy);
  const insp = useApp((s) => s.inspector);
  const close = () => void lab.select(null);
  return (
    <div className="path-panel">
      <PathView
        layout={layout}
        frame={store.pathFrame}
        selection={selection}
        onSelect={(sel) => void lab.select(sel)}
        colourBy={colourBy}
        onColourByChange={(c) => store.setState((s) => ({ view: { ...s.view, colourBy: c } }))}
        height={560}
      />
      {selection?.kind === 'packet' ? (
        <PacketInspector inspection={insp.packet} missing={insp.missing ?? undefined} onClose={close} />
      ) : null}
      {selection?.kind === 'stage' && insp.stage ? (
        <StageInspector inspection={insp.stage} onClose={close} />
      ) : null}
      {selection?.kind === 'stage' && insp.nitro ? <NitroTables tables={insp.nitro} /> : null}
    </div>
  );
}
