/**
 * The packet path's stages a single step can stop at: the probe's names (src/engine/model/probe.ts,
 * PROBE_STAGES, in path order; a test keeps the two lists equal) with the label the UI shows. Here
 * rather than in the protocol so the UI may use the list itself (it imports the protocol's types only).
 */
export const STEP_STAGES = [
  { stage: 'socket_tx', label: 'socket (send)' },
  { stage: 'qdisc', label: 'qdisc' },
  { stage: 'tx_ring', label: 'TX ring' },
  { stage: 'nitro_egress', label: 'Nitro egress' },
  { stage: 'fabric', label: 'VPC fabric' },
  { stage: 'nitro_ingress', label: 'Nitro ingress' },
  { stage: 'rx_ring', label: 'RX ring' },
  { stage: 'socket_rx', label: 'socket (receive)' },
] as const;
export type StepStage = (typeof STEP_STAGES)[number]['stage'];
