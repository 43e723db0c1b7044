/**
 * The path view's contract between the worker and the UI: layout, frames and inspections. The
 * types live with the engine's recorder (src/engine/view/path-types.ts; the engine may not import
 * this layer) and are re-exported here, type-only, for the UI and the worker service.
 *
 * A frame's typed arrays are transferred to the UI and handed back for reuse (`frameBuffers`
 * lists them). Stage and drop-reason codes index `PathLayout.stages` / `PathLayout.dropReasons`.
 * Passage fates: 0 = left the stage, 1 = dropped in it, 2 = still inside at the frame's end.
 */
export type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PacketStageVisit,
  PathFrame,
  PathInstanceLayout,
  PathLane,
  PathLayout,
  PathStageLayout,
  PathStagePart,
  StageInspection,
  StageParam,
  StageStateValue,
} from '../engine';

/** Bump when the layout or frame shape changes incompatibly. */
export const PATH_FRAME_VERSION = 1;
